"""Notebook 07: its module (the batched training run, figures, widgets, exercises), and the plain
models and loop the notebook defines, against the batched run: equal step for step."""

import functools
from pathlib import Path

import jupytext
import pytest
import torch
from torch.testing import assert_close

from conftest import ATOL
from helpers import ensembles, tasks
from helpers.course.exercises import passes
from helpers.notebooks import nb07_long_range_memory as nb07

SOURCE = Path(__file__).parents[2] / "notebooks" / "sources" / "07_long_range_memory.py"
PLAIN = ("class TanhRNN", "class LSTM", "class Attention", "def make_model", "def train")


@functools.cache
def notebook():
    """The notebook's imports, its three model classes, make_model, train and accuracy, run as the
    notebook runs them: the very code a learner reads."""
    namespace = {}
    for cell in jupytext.read(SOURCE).cells:
        if cell.cell_type == "code" and cell.source.startswith(("import ", *PLAIN)):
            exec(compile(cell.source, str(SOURCE), "exec"), namespace)
    assert all(
        name in namespace for name in ("TanhRNN", "LSTM", "Attention", "make_model", "train", "accuracy")
    )
    return namespace


@pytest.mark.parametrize("kind", ensembles.KINDS)
def test_a_plain_model_computes_what_its_ensemble_member_computes(kind):
    models = ensembles.make_models((5,), d=8, seed=3)
    plain = notebook()["make_model"](kind)
    with pytest.raises(RuntimeError):  # the default width is 32: the weights of d = 8 do not fit
        plain.load_state_dict(ensembles.member_weights(models, kind, 5))
    plain = type(plain)(d=8, **_options(kind))
    plain.load_state_dict(ensembles.member_weights(models, kind, 5))
    x, _ = tasks.first_token_recall(6, 5, generator=torch.Generator().manual_seed(0))
    (member,) = [(e, e.kinds.index(kind)) for e in models[5] if kind in e.kinds]
    with torch.no_grad():
        assert_close(plain(x), member[0](x)[member[1]], **ATOL)


def _options(kind):
    return {
        "LSTM": {"forget_bias": 0.0},
        "LSTM, forget bias +3": {"forget_bias": 3.0},
        "attention + positions": {"positions": True},
        "attention, no positions": {"positions": False},
    }.get(kind, {})


def test_plain_models_start_as_pytorch_initialises_them():
    nbk = notebook()
    lstm = nbk["make_model"]("LSTM, forget bias +3")
    f_bias, others = lstm.drive.bias[32:64], torch.cat([lstm.drive.bias[:32], lstm.drive.bias[64:]])
    assert abs(f_bias.mean() - 3) < 0.1 and others.abs().max() <= 32**-0.5
    rnn = nbk["make_model"]("tanh RNN")
    assert rnn.W_hh.abs().max() <= 32**-0.5 and rnn.embed.weight.std() > 0.8  # N(0, 1), as nn.Embedding


@pytest.mark.parametrize("kinds", [ensembles.KINDS[:3], ensembles.KINDS[3:]], ids=["recurrent", "attention"])
def test_the_batched_run_is_the_plain_loop_step_for_step(kinds):
    """Same initial weights, same batches: the losses at every step and the weights after the last
    agree (float64, where rounding cannot steer Adam; see the notebook's Going further)."""
    nbk = notebook()
    budget = ensembles.Budget(steps=4, batch=8, d=8, eval_every=2, n_test=16)
    delays = (2, 5)
    batched = ensembles.train_all(delays, budget, seed=1, kinds=kinds, dtype=torch.float64)
    start = ensembles.make_models(delays, d=8, seed=1, kinds=kinds)
    for T in delays:
        for kind in kinds:
            plain = type(nbk["make_model"](kind))(d=8, **_options(kind)).double()
            plain.load_state_dict(ensembles.member_weights(start, kind, T))
            losses = nbk["train"](plain, T, budget, seed=1)
            assert_close(torch.tensor(losses), torch.tensor(batched.loss_curve(kind, T)), atol=1e-10, rtol=0)
            after = ensembles.member_weights(batched.models, kind, T)
            for name, p in plain.state_dict().items():
                assert_close(p, after[name], atol=1e-10, rtol=0, msg=f"{kind} at T = {T}: {name}")


def test_train_all_small_budget_and_results():
    budget = ensembles.Budget(steps=4, batch=8, d=8, eval_every=2, n_test=16)
    r = ensembles.train_all(delays=(2, 3), budget=budget)
    assert r.steps == [0, 2, 4] and len(r.losses) == 4
    assert r.at().shape == (len(ensembles.KINDS), 2)
    assert ((0 <= r.at()) & (r.at() <= 1)).all()
    assert r.table().splitlines()[0].split() == ["model", "T=2", "T=3"]
    assert r.n_models == 2 * len(ensembles.KINDS) and r.seconds > 0  # what was trained, and how long it took
    with pytest.raises(ValueError, match="step"):
        r.at(3)
    with pytest.raises(ValueError, match="delay"):
        nb07.plot_learning_curves(r, delay=5)
    with pytest.raises(ValueError, match="kind"):
        r.loss_curve("GRU", 2)


def _fake_results():
    r = ensembles.Results((10, 30, 100), ensembles.Budget(steps=40, eval_every=20))
    for i, step in enumerate((0, 20, 40)):
        r.steps.append(step)
        r.accuracy.append(torch.full((len(ensembles.KINDS), 3), 0.125 + 0.4 * i))
    return r


def test_training_explorer_shows_the_chosen_step_in_place():
    explorer = nb07.explore_training(_fake_results())
    fig = explorer.result
    height = lambda: explorer.result.axes[0].lines[0].get_ydata()[0]
    assert explorer.error is None and height() == pytest.approx(0.925)
    explorer.controls["step"].value = 0
    assert explorer.result is fig  # the same figure, its lines moved
    assert height() == pytest.approx(0.125)
    assert "after 0 Adam steps" in explorer.result.axes[0].get_title()


def test_accuracy_figure_and_learning_curves_draw_the_order_blind_ceiling():
    bound = [tasks.order_blind_ceiling(T) for T in (10, 30, 100)]
    fig = nb07.plot_accuracy_vs_delay(_fake_results(), bound=bound)
    (line,) = [ln for ln in fig.axes[0].lines if ln.get_label() == "best order-blind guess"]
    assert list(line.get_ydata()) == pytest.approx([0.302, 0.224, 0.177], abs=5e-4)
    fig = nb07.plot_learning_curves(_fake_results(), delay=100, bound=bound[-1])
    (line,) = [ln for ln in fig.axes[0].lines if ln.get_label().startswith("best order-blind guess")]
    assert list(line.get_ydata()) == pytest.approx([0.177, 0.177], abs=5e-4)
    assert "0.177" in line.get_label()


def test_cell_path_widget_moves_the_curve_and_names_the_share_at_100():
    explorer = nb07.explore_cell_path()
    fig = explorer.result
    assert "f = 0.881, f^100 = 3.07e-06" in fig.axes[0].get_title()  # sigma(2)^100, off bias +3's line
    explorer.controls["bias"].value = 4.25
    assert explorer.result is fig and explorer.error is None
    share = fig.axes[0].lines[5].get_ydata()  # the squares at T = 10, 30, 100
    assert share[-1] == pytest.approx(torch.sigmoid(torch.tensor(4.25, dtype=torch.float64)).item() ** 100)
    assert "forget bias +4.25" in fig.axes[0].get_title()


def test_the_forget_bias_exercise_meets_bias_3_at_30():
    b = nb07.forget_bias_for_100()
    assert nb07.cell_path(b, (100,))[0] == pytest.approx(nb07.cell_path(3.0, (30,))[0], rel=1e-12)
    assert passes("forget_bias_for_100", b) and not passes("forget_bias_for_100", 3.0)
