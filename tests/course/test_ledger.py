"""The course map and the claims ledger that notebooks 00 and 08 show."""

import re
from pathlib import Path

from helpers.course import ledger

NOTEBOOK_DIR = Path(__file__).resolve().parents[2] / "notebooks"


def test_every_notebook_in_the_map_exists_and_is_linked():
    table = repr(ledger.course_map())
    for stem, title, _ in ledger.NOTEBOOKS:
        assert (NOTEBOOK_DIR / f"{stem}.ipynb").exists(), stem
        assert f"({stem}.ipynb)" in table and title in table


def test_the_ledger_has_every_claim_with_links_to_real_notebooks():
    claims = repr(ledger.claims_ledger())
    assert [row.split()[0] for row in claims.splitlines()[1:]] == [f"C{i}" for i in range(1, 9)]
    for target in re.findall(r"\]\(([^)]+)\)", claims):
        assert (NOTEBOOK_DIR / target).exists(), target


def test_the_ledger_renders_as_markdown_and_compares_as_text():
    claims = ledger.claims_ledger()
    assert claims._repr_markdown_().splitlines()[2].startswith("| C1 | h_t needs h_{t-1}")
    assert repr(claims).splitlines()[1].startswith("C1  h_t needs h_{t-1}")


def test_every_verdict_says_what_it_rests_on():
    """Each claim names what the course measures for it, and what it takes from published work."""
    table = ledger.claims_ledger()
    header = table.rows[0]
    assert header[3:5] == ["measured here", "from the literature"]
    for claim, row in zip(ledger.CLAIMS, table.rows[1:]):
        assert claim.measured and row[3] == claim.measured, claim.id
        for group in re.findall(r"\((\d\d(?:, \d\d)*)\)", claim.measured):  # "(04)", "(06, 08)"
            assert set(group.split(", ")) <= set(claim.where), (claim.id, group)
        assert row[4] == (claim.literature or "none")


def test_c3s_few_hundred_tokens_is_cited_not_measured():
    c3 = next(c for c in ledger.CLAIMS if c.id == "C3")
    assert "Khandelwal et al. 2018" in c3.literature and "few hundred tokens" in c3.literature
    assert "language model" not in c3.measured.replace("not a language model", "")


CITATION = re.compile(r"([A-Z][a-z]+)(?: et al\.|(?:, [A-Z][a-z]+)* & [A-Z][a-z]+)? (\d{4})")


def test_every_citation_in_the_ledger_is_in_the_further_reading_of_08():
    """A cited result has its full reference where the ledger is discussed (08's further reading)."""
    source = (NOTEBOOK_DIR / "sources" / "08_verdict.py").read_text(encoding="utf-8")
    reading = source[source.index("## Further reading") :]
    references = [" ".join(ref.split()) for ref in reading.split("\n# * ")[1:]]  # one entry, joined lines
    cited = {m for c in ledger.CLAIMS for m in CITATION.findall(c.literature + " " + c.verdict)}
    assert len(cited) >= 10
    for surname, year in cited:
        found = any(ref.startswith(f"{surname},") and f"({year})" in ref for ref in references)
        assert found, f"{surname} {year} is cited in the ledger, not in 08's further reading"
