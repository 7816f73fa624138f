"""Notebook 06's module: the complexity table, the grid-driven cost widget, the GPU figures."""

import pytest

from helpers import article, gpu_sweep, measure
from helpers.article import MODELS
from helpers.notebooks import nb06_parallelism_cost as nb06


def test_grid_and_explorer_redraw_from_measurements(monkeypatch):
    grid = nb06.measure_grid(seq_lens=(8, 32), batches=(1, 2), dim=16, repeats=1)
    assert set(grid.at(2, 32)) == set(MODELS) and grid.devices == ["cpu"]
    explorer = nb06.explore_cost(grid)
    assert repr(explorer) == "Explorer(cost: sequence length, batch size)"
    monkeypatch.setattr(nb06, "time_models", lambda *a, **k: pytest.fail("a redraw re-timed the models"))
    fig, titles = explorer.result, lambda: [ax.get_title() for ax in explorer.result.axes]
    explorer.controls["seq_len"].value = 8
    assert "N=8" in titles()[1] and "attention / RNN = 2.5" in titles()[1]  # N/d + 2 = 8/16 + 2
    explorer.controls["batch"].value = 1
    assert "B=1" in titles()[0] and explorer.error is None
    assert explorer.result is fig  # updated in place
    medians = [t.median_ms for t in grid.at(1, 8).values()]  # the grid's numbers, at N = 8
    assert [c.lines[0].get_ydata()[0] for c in fig.axes[0].containers] == medians
    shown = [t for (_, _, b, _), t in grid.times.items() if b == 1]  # every timing at B = 1
    low, high = fig.axes[0].get_ylim()
    assert low < min(t.q1_ms for t in shown) and high > max(t.q3_ms for t in shown)
    chosen = [line for ax in fig.axes for line in ax.lines if line.get_gid() == "chosen N"]
    assert [list(line.get_xdata()) for line in chosen] == [[8, 8], [8, 8]]


def test_width_precision_figure_has_every_labelled_line_in_its_legend():
    fig = nb06.plot_width_precision(gpu_sweep.read("h200_width_precision"))
    for ax in fig.axes:
        labelled = [line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")]
        assert ax.get_legend() is not None, ax.get_title()
        assert [t.get_text() for t in ax.get_legend().get_texts()] == labelled
    assert any("slow path" in t.get_text() for t in fig.axes[0].get_legend().get_texts())


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: article.article_models(10), "dim=10"),
        (lambda: article.article_models(0), "dim"),
        (lambda: measure.time_fn(lambda: None, repeats=0), "repeats"),
        (lambda: article.time_models(0, 8), "batch"),
        (lambda: article.time_models(2, -1), "seq_len"),
        (lambda: article.counted_flops("LSTM", 1, 2, 4), "LSTM"),
        (lambda: nb06.measure_grid(seq_lens=()), "seq_lens"),
        (lambda: nb06.plot_cost(7, 1, nb06.Grid((8,), (1,), 16, {})), "seq_len=7"),
    ],
)
def test_bad_input_raises_value_error(call, words):
    with pytest.raises(ValueError) as info:
        call()
    assert words in str(info.value)


def test_lstm_flops_are_four_times_the_tanh_rnns_and_counted_on_the_real_layer():
    """nn.LSTM's count (meta device) is 16 B N d^2: four gates, each the tanh RNN's two products;
    attention does 1.5 times it at N / d = 4, the article's 512 / 128, and the tanh RNN a sixth of
    attention's, as section 6 prints."""
    for batch, seq_len, dim in ((1, 64, 16), (3, 9, 8)):
        lstm = nb06.counted_lstm_flops(batch, seq_len, dim)
        assert (
            lstm == 4 * article.counted_flops(MODELS[1], batch, seq_len, dim) == 16 * batch * seq_len * dim**2
        )
        assert lstm == seq_len * nb06.counted_lstm_flops(batch, 1, dim)  # 06 counts one step, times N
    assert article.attention_flops(1, 64, 16) / nb06.counted_lstm_flops(1, 64, 16) == 1.5
    assert article.attention_flops(1, 256, 128) == nb06.counted_lstm_flops(1, 256, 128)  # exercise 2


def test_complexity_table_counts_and_labels_what_it_does_not_count():
    table = nb06.complexity_table(seq_len=32, dim=16)
    rows = {row[0].strip(): row for row in table.rows[1:]}
    flops = rows["FLOPs per layer (counted, N=32, d=16)"]
    assert (
        flops[2] == f"{article.rnn_flops(1, 32, 16):,}"
        and flops[4] == f"{article.attention_flops(1, 32, 16):,}"
    )
    assert "not a count" in next(k for k in rows if k.startswith("the formula"))
    assert any("derived in 04" in k for k in rows)


def test_widget_exercise_is_the_widgets_title():
    """Exercise 3: the right-hand title at batch 1, N = 256 is the registered answer (4)."""
    from helpers.course.exercises import EXERCISES

    grid = nb06.Grid((16, 256), (1,), 128, {})
    grid.times = {("cpu", m, 1, n): measure.Timing(1.0, 1.0, 1.0, 1) for m in MODELS for n in grid.seq_lens}
    title = nb06.plot_cost(256, 1, grid).axes[1].get_title()
    assert title.endswith(f"attention / RNN = {EXERCISES['widget_flop_ratio'].reference():.3g}"), title
