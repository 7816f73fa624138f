"""Exercises with instant checks: run the learner's answer against the reference.

A module registers an exercise next to the idea it practises:

    register_exercise("rnn_step", reference=rnn_step, make_inputs=..., hint="...")

and a notebook calls `check("rnn_step", my_rnn_step)`; `solution("rnn_step")`
prints the reference only when asked. An exercise without `make_inputs` asks for a
value (a number), not a function; its `worked` text explains how to get it. A `rule`
checks how a function answer computes, once its values are right (e.g. no loop over t)."""

import dataclasses
import inspect
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from html import escape as html_escape
from typing import Any

import numpy as np
import torch

from ..checks import require_positive_int
from ..seed import seeded
from .languages import LANGUAGES, current, for_reader, hint_text, phrase, sentence, verdict, worked_text


@dataclass
class Exercise:
    reference: Callable  # the right answer: a function, or a function of no inputs
    make_inputs: Callable[..., tuple]  # fresh arguments for one trial; given its number, if it takes one
    hint: str  # what to look at when values are wrong
    trials: int = 3
    worked: str = ""  # a short worked answer, printed by solution()
    rule: Callable[[Callable], str | None] | None = None  # how a right-valued answer must compute it

    @property
    def wants_function(self) -> bool:
        """True when the answer is a function of the drawn inputs; False for a value."""
        return self.make_inputs is not tuple


EXERCISES: dict[str, Exercise] = {}


def register_exercise(
    name: str,
    reference: Callable,
    make_inputs: Callable[[], tuple] = tuple,
    hint: str = "",
    trials: int = 3,
    worked: str = "",
    rule: Callable[[Callable], str | None] | None = None,
) -> None:
    """`rule(answer)`, for a function answer: None when it computes as asked, else what it does wrong.
    It runs after the answer's values passed every trial."""
    EXERCISES[name] = Exercise(reference, make_inputs, hint, trials, worked, rule)


def _lookup(name: str) -> Exercise:
    if name not in EXERCISES:  # registered by a module not imported yet?
        from .. import import_all

        import_all()
    if name not in EXERCISES:
        raise ValueError(f"no exercise called {name!r}; known: {', '.join(sorted(EXERCISES))}")
    return EXERCISES[name]


def _as_number(x: Any) -> int | float | None:
    """x as a Python int or float when it is one real number (numpy scalars, one-element
    arrays and tensors included); None otherwise. A bool is not a number."""
    if isinstance(x, torch.Tensor):
        real = not (x.dtype.is_complex or x.dtype == torch.bool)
        return x.item() if x.numel() == 1 and real else None
    if isinstance(x, np.ndarray):
        return x.item() if x.size == 1 and x.dtype.kind in "iuf" else None
    if isinstance(x, numbers.Real) and not isinstance(x, (bool, np.bool_)):
        return x.item() if isinstance(x, np.generic) else x
    return None


def _show(x: int | float) -> str:
    return str(x) if isinstance(x, numbers.Integral) else f"{float(x):.12g}"


def _not_a_number(got: Any, what: str) -> str:
    """Why `got` is not accepted where a number is expected, in one sentence."""
    if isinstance(got, (torch.Tensor, np.ndarray)):
        kind = "tensor" if isinstance(got, torch.Tensor) else "array"
        if (got.numel() if isinstance(got, torch.Tensor) else got.size) == 1:
            return verdict(f"number_got_{kind}", what=what, dtype=str(got.dtype))
        return verdict(f"single_got_{kind}", what=what, shape=str(tuple(got.shape)))
    if isinstance(got, (bool, np.bool_)):
        return verdict("number_got_bool", what=what, value=str(got))
    if callable(got):
        return verdict("number_got_function", what=what)
    if isinstance(got, str):
        return verdict("number_got_string", what=what, value=repr(got))
    return verdict("number_got_type", what=what, kind=type(got).__name__)


def compare_numbers(got: Any, want: int | float, what: str = "your answer") -> str | None:
    """None when got is the number want; otherwise one sentence saying what differs.

    An int reference (a count) must be matched exactly; 16640.0 is accepted, 16639 and
    16640.5 are not. A float reference is matched to about six significant digits
    (relative 1e-6, plus 1e-12 absolute): float32 results and any exact expression such as
    9/16 or math.log(50) pass; a value rounded to fewer digits (0.56, 3.91) is refused with
    a request for the exact value, and a different quantity (math.log2(50)) is simply wrong.
    The sentence is in the current language (`what` too, when PHRASES has it).
    """
    what = phrase(what)
    value = _as_number(got)
    if value is None:
        return _not_a_number(got, what)
    if isinstance(want, numbers.Integral):
        if value == want:
            return None
        if isinstance(value, float) and not value.is_integer():
            return verdict("not_whole", what=what, value=_show(value))
        return verdict("not_right", what=what, value=_show(value))
    error = abs(value - want)
    if error <= 1e-6 * abs(want) + 1e-12:
        return None
    if error <= 1e-2 * abs(want):  # right to two or three digits: rounded, or truncated
        return verdict("not_exact", what=what, value=_show(value))
    return verdict("not_right", what=what, value=_show(value))


def compare_tensors(got: Any, want: torch.Tensor, what: str, atol: float, rtol: float) -> str | None:
    """None when got matches the tensor want in shape, dtype and values (within atol, rtol)."""
    what = phrase(what)
    if not isinstance(got, torch.Tensor):
        return verdict("wants_tensor", what=what, kind=type(got).__name__)
    if got.shape != want.shape:
        return verdict("wrong_shape", what=what, shape=str(tuple(got.shape)), expected=str(tuple(want.shape)))
    if got.dtype != want.dtype:
        return verdict("wrong_dtype", what=what, dtype=str(got.dtype), expected=str(want.dtype))
    got = got.detach().cpu()
    if not torch.allclose(got, want, atol=atol, rtol=rtol, equal_nan=True):
        err = (got.double() - want.double()).abs().max().item()
        return verdict("wrong_values", what=what, difference=f"{err:.3g}")
    return None


def compare(
    got: Any, want: Any, what: str = "your answer", atol: float = 1e-5, rtol: float = 1e-4
) -> str | None:
    """None when got matches want; otherwise one sentence saying what differs, in the current language.

    Tensors are compared within atol and rtol; numbers by `compare_numbers`.
    """
    if isinstance(want, (tuple, list)):
        if not isinstance(got, (tuple, list)):
            return verdict("wants_tuple", what=phrase(what), n=str(len(want)), kind=type(got).__name__)
        if len(got) != len(want):
            return verdict("tuple_length", what=phrase(what), n=str(len(want)), got=str(len(got)))
        for i, (g, w) in enumerate(zip(got, want)):
            if problem := compare(g, w, f"{what}[{i}]", atol, rtol):
                return problem
        return None
    if isinstance(want, torch.Tensor):
        return compare_tensors(got, want, what, atol, rtol)
    if isinstance(want, numbers.Real) and not isinstance(want, bool):
        return compare_numbers(got, want, what)
    same = type(got) is type(want) and got == want
    return None if same else verdict("not_right", what=phrase(what), value=repr(got))


def check(name: str, answer: Any) -> None:
    """Check a function (or a value) against exercise `name`; print pass or a hint.

    Inputs are drawn under their own seed, so a check never moves the notebook's random state.
    """
    ex = _lookup(name)
    with seeded(0):
        say(f"[{name}] {_verdict(name, ex, answer)}")


def say(text: str) -> None:
    """Print a message for the learner. In a right-to-left language its order is kept by Unicode
    isolates (languages.for_reader); in a notebook it shows right-aligned, right to left (text/html,
    with the same text as text/plain)."""
    text = for_reader(text)
    if LANGUAGES[current()].direction == "rtl" and _in_notebook():
        from IPython.display import display

        display(right_to_left_bundle(text), raw=True)
    else:
        print(text)


def right_to_left_bundle(text: str) -> dict:
    """A message as a right-to-left display: text/html aligned right (every renderer that keeps the
    HTML attributes), text/plain for the others (its Unicode isolates keep the order)."""
    html = html_escape(text).replace("\n", "<br>")
    font = "font-family: var(--jp-code-font-family, monospace)"
    box = f'class="helpers-feedback" dir="rtl" style="direction: rtl; text-align: right; {font}"'
    return {"text/plain": text, "text/html": f"<div {box}>{html}</div>"}


def _in_notebook() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and hasattr(shell, "kernel")


def passes(name: str, answer: Any, trials: int | None = None, seed: int = 0) -> bool:
    """True when `answer` is right: on `trials` fresh draws (default: the exercise's own) under `seed`.

    For graders (tools/assignments.py writes nbgrader tests with it): `check` prints a verdict
    for a learner, `passes` answers yes or no. Prints nothing.
    """
    ex = _lookup(name)
    if trials is not None:
        require_positive_int(trials, "trials")
        ex = dataclasses.replace(ex, trials=trials)
    with seeded(seed):
        return _problem(name, ex, answer) is None


def _verdict(name: str, ex: Exercise, answer: Any) -> str:
    """ "correct!" or what is wrong, in the language `use_language` set (English by default)."""
    problem = _problem(name, ex, answer)
    return verdict("correct") if problem is None else problem


def _draw(make_inputs: Callable[..., tuple], trial: int) -> tuple:
    """make_inputs(trial) when it takes the trial's number (0, 1, ...: e.g. to alternate shapes), else
    make_inputs(). Either way a check's draws depend only on its seed, never on what ran before."""
    return make_inputs(trial) if inspect.signature(make_inputs).parameters else make_inputs()


def _problem(name: str, ex: Exercise, answer: Any) -> str | None:
    """None when `answer` is right, else the learner's message: what is wrong, then the hint."""
    tip = hint_text(name, ex.hint)
    tip = f" {verdict('hint', hint=tip)}" if tip else ""
    if not ex.wants_function:
        if answer is None:  # the stub as committed: no attempt yet, so no hint
            return verdict("no_answer", name=name)
        problem = compare(answer, ex.reference())
        return f"{verdict('not_yet', problem=problem)}{tip}" if problem else None
    if not callable(answer):
        problem = verdict("wants_function", kind=type(answer).__name__)
        return f"{verdict('not_yet', problem=problem)}{tip}"
    for trial in range(ex.trials):
        args = _draw(ex.make_inputs, trial)
        want = ex.reference(*args)
        try:
            got = answer(*args)
        except NotImplementedError:
            return verdict("not_attempted", name=name)
        except Exception as e:  # the learner's code failed: say how, without a traceback
            first_line = str(e).splitlines()[0] if str(e) else ""
            return f"{verdict('raised', error=type(e).__name__, message=first_line)}{tip}"
        problem = verdict("returned_none") if got is None else compare(got, want)
        if problem:
            return f"{verdict('not_yet', problem=problem)}{tip}"
    if ex.rule is not None and (problem := ex.rule(answer)):
        return f"{verdict('not_yet', problem=sentence(problem))}{tip}"
    return None


def hint(name: str) -> None:
    """Print exercise `name`'s hint in the learner's language (`check` shows it only after a wrong try)."""
    ex = _lookup(name)
    tip = hint_text(name, ex.hint)
    say(f"[{name}] {verdict('hint', hint=tip) if tip else verdict('no_hint', name=name)}")


def solution(name: str) -> None:
    """Print the worked answer of exercise `name` with its value, or else the reference's source."""
    ex = _lookup(name)
    worked = worked_text(name, ex.worked)
    if not ex.worked:
        print(inspect.getsource(ex.reference))
    elif ex.wants_function:
        say(worked)
    else:
        say(f"{worked}\n{verdict('answer')}: {ex.reference()!r}")
