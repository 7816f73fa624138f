"""The course map and the claims ledger that notebooks 00 and 08 show."""

import re

from helpers.course import ledger


def test_every_notebook_in_the_map_exists_and_is_linked():
    table = repr(ledger.course_map())
    assert "(coming)" not in table
    for stem, title, _ in ledger.NOTEBOOKS:
        assert (ledger.NOTEBOOK_DIR / f"{stem}.ipynb").exists(), stem
        assert f"({stem}.ipynb)" in table and title in table


def test_the_ledger_has_every_claim_with_links_to_real_notebooks():
    claims = repr(ledger.claims_ledger())
    assert [row.split()[0] for row in claims.splitlines()[1:]] == [f"C{i}" for i in range(1, 9)]
    for target in re.findall(r"\]\(([^)]+)\)", claims):
        assert (ledger.NOTEBOOK_DIR / target).exists(), target


def test_the_ledger_renders_as_markdown_and_compares_as_text():
    claims = ledger.claims_ledger()
    assert claims._repr_markdown_().splitlines()[2].startswith("| C1 | h_t needs h_{t-1}")
    assert repr(claims).splitlines()[1].startswith("C1  h_t needs h_{t-1}")
