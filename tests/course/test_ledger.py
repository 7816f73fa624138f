"""The course map and the claims ledger that notebooks 00 and 08 show."""

import re
from pathlib import Path

import pytest

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


def test_the_short_ledger_has_every_claim_in_one_line_with_links():
    """00 shows eight rows: the claim in a few words, the verdict in one line, the links."""
    short = ledger.short_ledger()
    assert short.rows[0] == ["", "the article says", "verdict", "where"]
    assert [row[0] for row in short.rows[1:]] == [f"C{i}" for i in range(1, 9)]
    for claim, row in zip(ledger.CLAIMS, short.rows[1:]):
        assert row[1:3] == [claim.short, claim.short_verdict]
        assert len(claim.short) <= 65 and len(claim.short_verdict) <= 120, claim.id
    for target in re.findall(r"\]\(([^)]+)\)", repr(short)):
        assert (NOTEBOOK_DIR / target).exists(), target


def test_the_readme_column_names_each_claim_of_each_notebook_once():
    column = ledger.readme_verdicts()
    assert list(column) == [stem for stem, _, _ in ledger.NOTEBOOKS] and column["00_start_here"] == ""
    assert column["04_attention"].startswith("C4: every token sees every other, all at once. *True in")
    assert " C5: " in column["04_attention"] and column["08_verdict"].startswith("C1-C8: the ledger")
    assert [c.id for c in ledger.claims("C1-C8")] == [f"C{i}" for i in range(1, 9)]
    assert [c.id for c in ledger.claims("C3, C5, C6")] == ["C3", "C5", "C6"] and ledger.claims("") == []
    for claim in ledger.CLAIMS:  # every claim is in the column of each notebook before 08 that tests it
        for n in claim.where:
            if n != "08":
                assert f"{claim.id}: {claim.short}. *" in column[ledger.stem(n)], (claim.id, n)


def claim(claim_id: str) -> ledger.Claim:
    return next(c for c in ledger.CLAIMS if c.id == claim_id)


def test_c2_says_the_singular_value_condition_is_sufficient_and_rests_on_no_bound_check():
    """sigma_max < 1 guarantees vanishing; > 1 is necessary, not sufficient, for exploding; the rate
    is rho (linear) or a Lyapunov exponent (tanh). 02's bound assertion follows from
    submultiplicativity, a sanity check: the ledger does not cite it as evidence."""
    c2 = claim("C2")
    assert "sufficient condition for vanishing" in c2.verdict
    assert "necessary, not sufficient, for exploding" in c2.verdict
    assert "rho for a linear RNN" in c2.verdict and "Lyapunov exponent for a tanh RNN" in c2.verdict
    assert "precise condition" not in c2.verdict + c2.short_verdict
    assert "guarantees vanishing" in c2.short_verdict
    for evidence in (c2.measured, c2.literature):
        assert "bound" not in evidence and "checked numerically" not in evidence


def test_c5_is_right_about_distance_wrong_about_scale_and_its_1_over_n_is_no_vanishing():
    c5 = claim("C5")
    assert c5.verdict.startswith("right about distance, wrong about scale")
    assert c5.short_verdict.startswith("right about distance") and "wrong about scale" in c5.short_verdict
    assert "O(N^2)" in c5.verdict and "O(N^2)" in c5.short_verdict
    assert "derivative of an average" in c5.verdict and "where to attend" in c5.verdict
    assert "not a vanishing gradient" in c5.verdict and "dilut" not in c5.verdict


def test_c7_names_one_cpu_thread_as_06_times_it():
    from helpers import measure

    c7 = claim("C7")
    assert measure.THREADS == 1
    assert "one CPU thread" in c7.verdict and "one CPU thread" in c7.short_verdict
    assert "on a CPU" not in c7.verdict + c7.short_verdict
    assert "prints no numbers" in c7.verdict


def test_c7s_gpu_numbers_are_the_shipped_h200_measurements():
    """At B = 32, N = 512, d = 128, fp32: attention (both calls) against cuDNN's nn.LSTM and nn.RNN,
    read from helpers/data/gpu, as the verdict prints them."""
    from helpers import gpu_sweep as gs

    sweep, at = gs.read("h200_sweep"), dict(batch=32, seq_len=512, dim=128)
    ms = {(p, m): gs.value(sweep, pass_=p, model=m, **at) for p in gs.PASSES for m in gs.SWEEP_MODELS}
    verdict = claim("C7").verdict
    for p, words in (("fwd", "forward"), ("fwd+bwd", "forward + backward")):
        attention = sorted(ms[p, m] for m in (gs.FAST_MHA, gs.MHA))
        assert f"{attention[0]:.2f}-{attention[1]:.2f} ms {words}" in verdict, p
        assert attention[1] < ms[p, gs.LSTM]  # both calls beat the LSTM
        faster = {m for m in gs.SWEEP_MODELS if ms[p, m] < attention[0]}
        assert faster == {gs.RNN}, p  # only the tanh nn.RNN beats attention
    assert f"(nn.LSTM, the model it replaced ({ms['fwd', gs.LSTM]:.2f} ms and " in verdict.replace(
        "cuDNN's nn.LSTM", "(nn.LSTM"
    )
    assert f"and {ms['fwd+bwd', gs.LSTM]:.2f} ms), in every run" in verdict
    runs = gs.runs_at_512(model=gs.FAST_MHA, over=gs.LSTM)
    assert len(runs) == 5 and all(att < lstm for lstm, att in runs.values())  # in every run
    rnn_runs = gs.runs_at_512(model=gs.FAST_MHA, over=gs.RNN)
    assert all(att > rnn for rnn, att in rnn_runs.values())
    article_call = gs.executed_06()["fwd+bwd"]  # the other run of the article's call
    assert ms["fwd+bwd", gs.MHA] > ms["fwd+bwd", gs.RNN] and article_call[gs.MHA] < article_call[gs.RNN]
    assert "in one of its two runs" in verdict


def test_c7s_flop_ratios_are_counted():
    """Attention does about 1.5 times the LSTM's FLOPs at N / d = 4 and the tanh RNN a sixth of it."""
    import torch
    from torch import nn

    from helpers import article
    from helpers.measure import count_flops

    batch, seq_len, dim = 1, 64, 16  # N / d = 4, as at N = 512, d = 128: the ratios depend on N / d only
    attention = article.counted_flops(article.MODELS[2], batch, seq_len, dim)
    rnn = article.counted_flops(article.MODELS[1], batch, seq_len, dim)
    cell, x = nn.LSTMCell(dim, dim), torch.zeros(batch, seq_len, dim)

    def lstm_loop():
        h = c = torch.zeros(batch, dim)
        for t in range(seq_len):
            h, c = cell(x[:, t], (h, c))

    lstm = count_flops(lstm_loop)
    assert attention / lstm == 1.5 and rnn / attention == 1 / 6
    assert attention == article.attention_flops(batch, seq_len, dim)
    verdict = claim("C7").verdict
    assert "about 1.5 times its FLOPs" in verdict and "about a sixth of attention's FLOPs" in verdict


def test_c3_gives_the_capacity_bound_at_the_sizes_of_the_models_it_cites():
    """03 computes the bound at AWD-LSTM's sizes (Khandelwal et al. 2018's models): not the toy's."""
    from helpers.notebooks import nb03_lstm_gating as nb03

    bounds = [nb03.state_full_tokens(nb03.AWD_LSTM_UNITS, v) for v in nb03.LM_VOCABULARIES.values()]
    low, high = sorted(round(b) for b in bounds)
    assert f"{low:,} to {high:,} tokens, far above the 200 they use" in claim("C3").measured


@pytest.mark.parametrize("lang", ["it", "ru", "fa", "es"])
def test_the_course_map_and_the_short_ledger_are_in_the_learners_language(lang):
    """00 prints both: in a translated notebook their words are that language's (the links and the
    claim ids stay); in Persian their Markdown reads right to left."""
    from helpers.course import languages

    english_map, english_ledger = ledger.course_map(), ledger.short_ledger()
    languages.use_language(lang)
    try:
        words = languages._words(lang)
        course_map, short = ledger.course_map(), ledger.short_ledger()
    finally:
        languages.use_language("en")
    assert course_map.rows[0] == words.COURSE_MAP["header"]
    assert [r[1] for r in course_map.rows[1:]] == [words.COURSE_MAP[s] for s, _, _ in ledger.NOTEBOOKS]
    assert [(r[0], r[2]) for r in course_map.rows][1:] == [(r[0], r[2]) for r in english_map.rows][1:]
    assert short.rows[0] == words.SHORT_LEDGER["header"]
    for row, english in zip(short.rows[1:], english_ledger.rows[1:], strict=True):
        assert (row[0], row[3]) == (english[0], english[3])
        assert tuple(row[1:3]) == words.SHORT_LEDGER[row[0]] and row[1] != english[1]
    rtl = short._repr_markdown_().startswith('<div dir="rtl"')
    assert rtl == (languages.LANGUAGES[lang].direction == "rtl")


NUMBERS = re.compile(r"\d+(?:[.\u202f]\d+)*")


@pytest.mark.parametrize("lang", ["it", "ru", "fa", "es"])
def test_the_claims_ledger_is_in_the_learners_language_with_the_english_numbers(lang):
    """08 prints the full ledger: in a translated notebook each claim, verdict, measurement and
    citation is in that language, with the same numbers, notebooks and years as the English."""
    from helpers.course import languages

    english = ledger.claims_ledger()
    languages.use_language(lang)
    try:
        translated = ledger.claims_ledger()
    finally:
        languages.use_language("en")
    assert translated.rows[0] == languages._words(lang).CLAIMS_LEDGER["header"]
    for row, en in zip(translated.rows[1:], english.rows[1:], strict=True):
        assert (row[0], row[5]) == (en[0], en[5])
        for mine, theirs in zip(row[1:5], en[1:5]):
            assert mine != theirs, f"{lang} {row[0]}: not translated: {theirs[:60]}"
            numbers = [n.replace("\u202f", "") for n in NUMBERS.findall(mine)]
            expected = [n.replace(",", "") for n in re.findall(r"\d+(?:[.,]\d+)*", theirs)]
            assert sorted(numbers) == sorted(expected), f"{lang} {row[0]}: numbers {numbers} != {expected}"
