"""helpers.course.style: the course's log axes and tick labels."""

import matplotlib.patches
import pytest

from helpers.course.style import RoundPowers, log_axis, new_figure, tick_label


def test_tick_labels_are_plain_from_1e_minus_3_to_1e5():
    values = (1e-50, 1e-4, 0.001, 0.3, 1, 30, 3e4, 1e5, 3e7, 1e300)
    assert [tick_label(v) for v in values] == [
        "1e-50",
        "1e-4",
        "0.001",
        "0.3",
        "1",
        "30",
        "30000",
        "1e5",
        "3e7",
        "1e300",
    ]


def test_log_axis_sets_the_scale_ticks_and_no_minor_ticks():
    fig, ax = new_figure()
    ax.plot([16, 64, 256], [0.5, 20, 3e5])
    log_axis(ax, "x", ticks=[16, 64, 256])
    log_axis(ax, "y", subs=(1.0, 3.0))
    fig.canvas.draw()
    assert ax.get_xscale() == ax.get_yscale() == "log"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["16", "64", "256"]
    assert {"1", "3", "1e5", "3e5"} <= {t.get_text() for t in ax.get_yticklabels()}
    assert not ax.xaxis.get_minor_locator()() and not ax.yaxis.get_minor_locator()()


def test_round_powers_step_by_round_exponents():
    assert RoundPowers().tick_values(1e-55, 10) == [10.0**k for k in range(-50, 1, 10)]
    assert RoundPowers().tick_values(0.5, 2e4) == [1.0, 10.0, 100.0, 1000.0, 10000.0]
    assert RoundPowers(base=2).tick_values(16, 8192) == [16.0, 64.0, 256.0, 1024.0, 4096.0]


def test_log_axis_rejects_an_unknown_axis():
    _, ax = new_figure()
    with pytest.raises(ValueError, match="which"):
        log_axis(ax, "z")


def test_a_figure_is_described_by_its_own_labels_and_finding():
    from helpers.course.style import describe, finding, new_figure

    fig, (left, right) = new_figure(1, 2)
    left.plot([1, 2], [1, 10], label="rho = 0.9")
    left.plot([1, 2], [1, 5], "--o", label="rho = 1.1")
    left.set(yscale="log", xlabel="steps back T", ylabel=r"$\|\partial h_T/\partial h_0\|$", title="linear")
    left.legend()
    right.bar(["a", "b"], [0.2, 0.8])
    right.set(xlabel="score", ylabel="probability")
    text = describe(finding(fig, "The norm grows for rho > 1."))
    assert text.startswith("Figure with 2 panels. linear: lines of ‖∂h_T/∂h_0‖ (log scale) against steps")
    assert "(2 shown: rho = 0.9 [solid line]; rho = 1.1 [dashed line, circles])" in text
    assert "bars of probability against score" in text
    assert text.endswith("The norm grows for rho > 1.")


def test_colour_only_names_the_entries_that_look_alike():
    from helpers.course.style import colour_only, new_figure

    _, ax = new_figure()
    ax.plot([1, 2], [1, 2], label="RNN")
    ax.plot([1, 2], [2, 3], label="LSTM")
    ax.plot([1, 2], [3, 4], ":", label="attention")
    ax.legend()
    assert colour_only(ax) == ["RNN [solid line]", "LSTM [solid line]"]
    ax.get_lines()[1].set_marker("s")
    ax.legend()
    assert colour_only(ax) == []


def test_a_diagram_is_named_a_diagram_and_told_by_its_finding():
    from helpers.course.style import describe, finding, new_figure

    fig, ax = new_figure()
    ax.add_patch(matplotlib.patches.Rectangle((0, 0), 1, 1))
    ax.set_title("boxes and arrows")
    ax.axis("off")
    text = describe(finding(fig, "h_t waits for h_t-1."))
    assert text == "Figure with 1 panel. boxes and arrows: a diagram. h_t waits for h_t-1."


def test_bars_named_by_text_are_described_by_their_names_before_any_draw():
    from helpers.course.style import describe, log_axis, new_figure

    fig, ax = new_figure()
    ax.bar(["one call", "100 independent calls", "100-step chain"], [0.05, 1.0, 2.0])
    log_axis(ax, "y")
    ax.set_ylabel("time (ms)")
    expected = (
        "bars of time (ms) (log scale) against 3 categories: one call; 100 independent calls; 100-step chain"
    )
    assert expected in describe(fig)
    ax.set_xticks([0, 1, 2], ["a", "b", "c"])  # a FixedFormatter: names too
    assert "against 3 categories: a; b; c." in describe(fig)
    ax.set_xlabel("one layer: b = 18 x a")  # a label says what the bars show; the names stay
    assert "against one layer: b = 18 x a (3 categories: a; b; c)." in describe(fig)


def test_a_panel_takes_an_empty_axis_label_from_the_axes_it_shares_it_with():
    from helpers.course.style import describe, log_axis, new_figure

    fig, axes = new_figure(2, 2, sharex=True, sharey="row")
    for ax in axes.flat:
        ax.plot([16, 64], [1, 10])
        log_axis(ax, "x", base=2)
        log_axis(ax, "y")
    for ax in axes[1]:
        ax.set_xlabel("sequence length N")
    for ax in axes[:, 0]:
        ax.set_ylabel("time (ms)")
    text = describe(fig)
    panel = "lines of time (ms) (log scale) against sequence length N (log scale)"
    assert text.count(panel) == 4, text
    assert "against (log scale)" not in text and "of (log scale)" not in text


def test_an_unlabelled_log_axis_is_still_named():
    from helpers.course.style import describe, log_axis, new_figure

    fig, ax = new_figure()
    ax.plot([1, 2], [1, 10])
    log_axis(ax, "y")
    log_axis(ax, "x")
    assert "lines of values (log scale) against position (log scale)" in describe(fig)


def test_triangles_pointing_different_ways_are_told_apart():
    from helpers.course.style import colour_only, describe, new_figure

    fig, ax = new_figure()
    ax.plot([1, 2], [1, 2], "-^", label="need_weights=True")
    ax.plot([1, 2], [2, 3], "-v", label="need_weights=False")
    ax.legend()
    assert "[solid line, up-triangles]" in describe(fig) and "[solid line, down-triangles]" in describe(fig)
    assert colour_only(ax) == []


def test_categories_repeated_under_tiled_maps_are_named_once():
    from helpers.course.style import describe, new_figure

    fig, ax = new_figure()
    ax.imshow([[0.0] * 6] * 2)
    ax.set_xticks(range(6), ["the", "cat", "sat"] * 2)
    assert "against 3 categories, repeated 2 times: the; cat; sat." in describe(fig)
