"""Exercises with instant checks: run the learner's answer against the reference.

A module registers an exercise next to the idea it practises:

    register_exercise("rnn_step", reference=rnn_step, make_inputs=..., hint="...")

and a notebook calls `check("rnn_step", my_rnn_step)`; `solution("rnn_step")`
prints the reference only when asked.
"""
import inspect
from dataclasses import dataclass
from typing import Any, Callable

import torch


@dataclass
class Exercise:
    reference: Callable            # the right answer: a function, or a function of no inputs
    make_inputs: Callable[[], tuple]  # fresh arguments for one trial
    hint: str                      # what to look at when values are wrong
    trials: int = 3


EXERCISES: dict[str, Exercise] = {}


def register_exercise(name: str, reference: Callable, make_inputs: Callable[[], tuple] = tuple,
                      hint: str = "", trials: int = 3) -> None:
    EXERCISES[name] = Exercise(reference, make_inputs, hint, trials)


def _lookup(name: str) -> Exercise:
    if name not in EXERCISES:
        raise ValueError(f"no exercise called {name!r}; known: {', '.join(sorted(EXERCISES))}")
    return EXERCISES[name]


def compare(got: Any, want: Any, what: str = "your answer", atol: float = 1e-5,
            rtol: float = 1e-4) -> str | None:
    """None when got matches want; otherwise one sentence saying what differs."""
    if isinstance(want, (tuple, list)):
        if not isinstance(got, (tuple, list)) or len(got) != len(want):
            return f"{what} should be a tuple of {len(want)} values, got {type(got).__name__}"
        for i, (g, w) in enumerate(zip(got, want)):
            if (problem := compare(g, w, f"{what}[{i}]", atol, rtol)):
                return problem
        return None
    if isinstance(want, torch.Tensor):
        if not isinstance(got, torch.Tensor):
            return f"{what} should be a torch.Tensor, got {type(got).__name__}"
        if got.shape != want.shape:
            return f"{what} has shape {tuple(got.shape)}, expected {tuple(want.shape)}"
        if got.dtype != want.dtype:
            return f"{what} has dtype {got.dtype}, expected {want.dtype}"
        if not torch.allclose(got, want, atol=atol, rtol=rtol, equal_nan=True):
            err = (got - want).abs().max().item()
            return f"{what} has the right shape but wrong values (max difference {err:.3g})"
        return None
    if isinstance(want, (int, float)) and not isinstance(want, bool):
        if not isinstance(got, (int, float, torch.Tensor)) or isinstance(got, bool):
            return f"{what} should be a number, got {type(got).__name__}"
        got = float(got)
        if abs(got - want) > atol + rtol * abs(want):
            return f"{what} is {got:.6g}, which is not right"
        return None
    return None if got == want else f"{what} is {got!r}, which is not right"


def check(name: str, answer: Any) -> None:
    """Check a function (or a value) against exercise `name`; print pass or a hint.

    Inputs are drawn under their own seed, so a check never moves the notebook's random state.
    """
    ex = _lookup(name)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        print(f"[{name}] {_verdict(ex, answer)}")


def _verdict(ex: Exercise, answer: Any) -> str:
    hint = f" Hint: {ex.hint}" if ex.hint else ""
    for _ in range(ex.trials if callable(answer) else 1):
        args = ex.make_inputs()
        want = ex.reference(*args)
        try:
            got = answer(*args) if callable(answer) else answer
        except NotImplementedError:
            return "not attempted yet: replace `raise NotImplementedError` with your code."
        except Exception as e:  # the learner's code failed: say how, without a traceback
            first_line = str(e).splitlines()[0] if str(e) else ""
            return f"your code raised {type(e).__name__}: {first_line}.{hint}"
        if (problem := compare(got, want)):
            return f"not yet: {problem}.{hint}"
    return "correct!"


def solution(name: str) -> None:
    """Print the reference solution of exercise `name`."""
    print(inspect.getsource(_lookup(name).reference))
