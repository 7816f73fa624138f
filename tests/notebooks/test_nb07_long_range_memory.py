"""Notebook 07's module: training with a progress line, and the training explorer."""

import pytest
import torch

from helpers import ensembles, tasks
from helpers.notebooks import nb07_long_range_memory as nb07


def test_train_all_small_budget_and_results():
    budget = ensembles.Budget(steps=4, batch=8, d=8, eval_every=2, n_test=16)
    r = ensembles.train_all(delays=(2, 3), budget=budget)
    assert r.steps == [0, 2, 4]
    assert r.at().shape == (len(ensembles.KINDS), 2)
    assert ((0 <= r.at()) & (r.at() <= 1)).all()
    assert r.table().splitlines()[0].split() == ["model", "T=2", "T=3"]
    assert r.n_models == 2 * len(ensembles.KINDS) and r.seconds > 0  # what was trained, and how long it took
    with pytest.raises(ValueError, match="step"):
        r.at(3)
    with pytest.raises(ValueError, match="delay"):
        nb07.plot_learning_curves(r, delay=5)


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


def test_accuracy_figure_draws_the_order_blind_ceiling():
    bound = [tasks.order_blind_ceiling(T) for T in (10, 30, 100)]
    fig = nb07.plot_accuracy_vs_delay(_fake_results(), bound=bound)
    (line,) = [ln for ln in fig.axes[0].lines if ln.get_label() == "best order-blind guess"]
    assert list(line.get_ydata()) == pytest.approx([0.302, 0.224, 0.177], abs=5e-4)
