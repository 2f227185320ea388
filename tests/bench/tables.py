# gst-cudaconv: the benchmark scripts' tables, as Markdown or as aligned
# text (ab-table.py, ncu-table.py).


def print_table(head, rows, markdown, right_from=None):
    """Prints head and rows (lists of cells, shown with str) as a Markdown
    table, or as columns two spaces apart, padded on the right; from column
    right_from on, numbers' columns, padded on the left."""
    rows = [[str(c) for c in r] for r in rows]
    head = [str(c) for c in head]
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(r) + " |")
        return
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    for r in [head] + rows:
        cells = [c.rjust(w) if right_from is not None and i >= right_from
                 else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        print("  ".join(cells).rstrip())
