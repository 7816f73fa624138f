"""One table for every notebook: Markdown in Jupyter, aligned text for nbval to compare."""


class Table:
    """A header and rows of cells (any values, shown with str) that render as Markdown in Jupyter."""

    def __init__(self, header: list, rows: list[list]):
        self.rows = [[str(cell) for cell in row] for row in [header, *rows]]

    def _repr_markdown_(self) -> str:
        lines = ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join([lines[0], "|" + "---|" * len(self.rows[0])] + lines[1:])

    def __repr__(self) -> str:  # the text/plain that nbval compares: columns aligned
        widths = [max(len(r[i]) for r in self.rows) for i in range(len(self.rows[0]))]
        return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in self.rows)
