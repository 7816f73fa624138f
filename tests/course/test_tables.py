"""helpers.course.tables: one table, Markdown in Jupyter and aligned text for nbval."""

from helpers.course.tables import Table


def test_table_renders_markdown_and_aligned_text():
    table = Table(["kind", "FLOPs"], [["recurrent", 16_384], ["attention", 1]])
    assert table._repr_markdown_().splitlines()[:3] == [
        "| kind | FLOPs |",
        "|---|---|",
        "| recurrent | 16384 |",
    ]
    assert repr(table).splitlines() == ["kind       FLOPs", "recurrent  16384", "attention  1"]
