"""Every registered widget, moved without a browser: each control redraws, and the
drawing changes with the value. (tests/project/test_browser.py does the same in Chromium.)"""

import base64
import io
import re

import ipywidgets as ipw
import numpy as np
import pytest
from PIL import Image

import helpers  # noqa: F401  (registers every explorer)
from helpers.course.style import colour_only
from helpers.course.widgets import Explorer, _reuse_layout, choice, explorers, sample_values, slider

EXPLORERS = explorers()


def drawing(explorer: Explorer) -> str:
    return str(explorer.output.outputs[0]["data"])


@pytest.mark.parametrize("name", sorted(EXPLORERS))
def test_every_control_redraws_something_different(name):
    explorer = EXPLORERS[name]()
    assert explorer.error is None, explorer.error
    assert explorer.output.outputs, "the first figure is drawn at once"
    for label, control in explorer.controls.items():
        assert explorer.fields[label].description, f"{name}: control {label!r} has no label"
        before, count = drawing(explorer), explorer.redraws
        for value in sample_values(control):
            control.value = value
            assert explorer.error is None, f"{name}: {label}={value!r}: {explorer.error}"
        assert explorer.redraws > count, f"{name}: moving {label!r} did not redraw"
        assert drawing(explorer) != before, f"{name}: moving {label!r} left the drawing unchanged"


def pixels(png_base64: str) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(png_base64))).convert("RGBA"))


def saved(fig) -> np.ndarray:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return pixels(base64.b64encode(buf.getvalue()))


@pytest.mark.parametrize("name", sorted(EXPLORERS))
def test_a_figure_updated_in_place_equals_one_drawn_anew(name):
    """What the widget shows (its live frame, moving artists over a kept background) is, pixel
    for pixel, the figure that `draw` makes anew and a notebook saves."""
    explorer = EXPLORERS[name]()
    assert explorer.update is not None, f"{name} redraws from scratch: give it update= (a tenth of a second)"
    for label, control in explorer.controls.items():
        for value in sample_values(control):
            control.value = value
            fresh = explorer.draw(**explorer.values())
            _reuse_layout(fresh, explorer._layout)
            shown = pixels(explorer.output.outputs[0]["data"]["image/png"])
            assert np.array_equal(shown, saved(fresh)), f"{name}: {label}={value!r} differs from a new figure"


def test_explorer_shows_a_value_error_as_a_message_not_a_traceback():
    def draw(x):
        if x > 2:
            raise ValueError(f"x must be at most 2, got {x}")
        return f"x = {x}"

    explorer = Explorer(draw, {"x": slider("x", 0, 5, 1, 1)}, name="demo")
    explorer.controls["x"].value = 4
    assert explorer.error == "x must be at most 2, got 4"
    assert "Cannot draw this: x must be at most 2" in drawing(explorer)
    explorer.controls["x"].value = 2
    assert explorer.error is None and "x = 2" in drawing(explorer)


def test_explorer_repr_is_stable_for_nbval():
    explorer = helpers.notebooks.nb00_start_here.explore_softmax()
    assert repr(explorer) == "Explorer(softmax: temperature)"


def test_softmax_widget_changes_the_bars():
    explorer = helpers.notebooks.nb00_start_here.explore_softmax()
    heights = lambda: [p.get_height() for p in explorer.result.axes[0].patches]
    cold = (explorer.controls["temperature"].__setattr__("value", 0.1), heights())[1]
    hot = (explorer.controls["temperature"].__setattr__("value", 5.0), heights())[1]
    assert cold[0] > 0.99 and max(hot) < 0.4


def test_slider_kind_follows_its_numbers():
    assert isinstance(slider("n", 1, 10, 1, 5), ipw.IntSlider)
    assert isinstance(slider("rho", 0.5, 1.5, 0.05, 1.0), ipw.FloatSlider)
    assert slider("n", 1, 10, 1, 5).continuous_update is False


def test_choice_slides_over_its_options_and_redraws_on_release():
    control = choice("d_k", (1, 2, 4, 8), 4)
    assert isinstance(control, ipw.SelectionSlider) and control.continuous_update is False
    assert control.value == 4 and sample_values(control) == [1, 2, 8]


@pytest.mark.parametrize("name", sorted(EXPLORERS))
def test_legend_entries_differ_by_more_than_colour(name):
    """Colour-blind readers: no two legend entries of one axes look alike apart from colour
    (line style, marker, width; bars; shaded areas), at any value of the controls."""
    explorer = EXPLORERS[name]()
    for control in explorer.controls.values():
        for value in [control.value, *sample_values(control)[:1]]:
            control.value = value
            for ax in explorer.result.axes:
                same = colour_only(ax)
                assert not same, f"{name}, {ax.get_title()!r}: only colour tells apart {same}"


def test_a_control_outside_the_background_redraws_only_the_moving_artists():
    explorer = EXPLORERS["explore_cost"]()  # background: the batch; N moves a line and titles
    drawn = explorer.frames.backgrounds_drawn
    for value in sample_values(explorer.controls["seq_len"]):
        explorer.controls["seq_len"].value = value
    assert explorer.frames.backgrounds_drawn == drawn, "moving N redrew the measured lines"
    explorer.controls["batch"].value = sample_values(explorer.controls["batch"])[0]
    assert explorer.frames.backgrounds_drawn == drawn + 1, "a new batch kept the old lines"


def test_background_must_name_controls():
    with pytest.raises(ValueError, match="background names controls that demo lacks"):
        Explorer(lambda x: f"x = {x}", {"x": slider("x", 0, 5, 1, 1)}, name="demo", background=("y",))


def test_each_control_has_a_labelled_field_that_moves_it():
    """A screen reader names the field (ipywidgets ties its label to an input or a select, not to a
    slider's handle); typing a value there moves the slider and redraws."""
    explorer = helpers.notebooks.nb02_bptt_gradients.explore_gradient_norms()
    rho, field = explorer.controls["rho"], explorer.fields["rho"]
    assert isinstance(field, ipw.BoundedFloatText) and field.description == "spectral radius ρ"
    assert rho.description == "" and not rho.readout  # the field names it and shows its value
    count = explorer.redraws
    field.value = 1.2
    assert rho.value == 1.2 and explorer.redraws == count + 1
    assert "1.20" in explorer.result.axes[0].get_title()
    rho.value = 0.8
    assert field.value == 0.8
    scale = explorer.fields["input_scale"]
    assert isinstance(scale, ipw.Dropdown)
    assert list(scale.options) == list(explorer.controls["input_scale"].options)


@pytest.mark.parametrize("lang", ["it", "ru", "fa", "es"])
def test_every_control_label_is_in_the_learners_language(lang):
    """With helpers.use_language(lang), every widget's control labels are that language's LABELS
    (a label that is only code, such as d_k, stays as it is); a ValueError's frame too."""
    from helpers.course import languages

    english = {name: [f.description for f in EXPLORERS[name]().fields.values()] for name in EXPLORERS}
    languages.use_language(lang)
    try:
        labels = languages._words(lang).LABELS
        for name, factory in EXPLORERS.items():
            shown = [f.description for f in factory().fields.values()]
            want = [labels.get(e, e) for e in english[name]]
            assert shown == want, (name, shown)
            untranslated = [e for e in english[name] if e not in labels and not re.fullmatch(r"[\w, ×]+", e)]
            assert not untranslated, f"{lang} {name}: no translation for {untranslated}"
        assert languages.verdict("cannot_draw", error="x").endswith(": x")
        assert "Cannot draw" not in languages.verdict("cannot_draw", error="x")
    finally:
        languages.use_language("en")
    assert all(e in labels or re.fullmatch(r"\w+", e) or "×" in e for ls in english.values() for e in ls)
