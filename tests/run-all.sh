#!/bin/bash
# The README's test command: sets everything up (Debian packages, build) and
# runs the whole test suite with Meson's test runner.  GPU tests skip on
# machines without a usable GPU; their reasons are printed at the end.
# Extra arguments go to `meson test` (e.g. --suite kernels).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../pipelines/setup.sh
. "$here/../pipelines/setup.sh"

status=0
meson test -C "$BUILD_DIR" --print-errorlogs --num-processes "$(nproc)" \
  "$@" || status=$?

# Meson shows a skipped test as SKIP without its output: say why here.
python3 - "$BUILD_DIR/meson-logs/testlog.json" <<'PY'
import json, sys
skipped = []
for line in open(sys.argv[1]):
    t = json.loads(line)
    if t.get("result") == "SKIP":
        why = [l for l in t.get("stdout", "").splitlines() if "SKIP" in l]
        skipped.append((t["name"], why[-1] if why else "(no reason printed)"))
if skipped:
    print("\nSkipped tests:")
    for name, why in skipped:
        print(f"  {name}: {why.strip()}")
PY
exit $status
