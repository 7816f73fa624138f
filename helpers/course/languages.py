"""The course's languages: their names and direction, the switcher line, and the words of `check`.

English is the source; notebooks/<lang>/ holds the other languages (tools/translations.py builds
them from the English notebooks). A translated notebook calls `helpers.use_language(lang)` once,
in its first code cell, and from then on everything the helpers print is in that language: the
verdicts, diagnoses and hints of `helpers.check`, the widgets' control labels and messages, the
course map and the claims ledger. The words live in helpers/course/words/<lang>.py: VERDICTS (the
same keys as ENGLISH below), HINTS (one per exercise that has an English hint), PHRASES (the fixed
English phrases a diagnosis names, e.g. "your answer"), SENTENCES (the English sentence templates
of the exercises' rules), LABELS (widget control labels) and the course map's and ledger's words.

In a right-to-left language every run of left-to-right text in a message (code, numbers, shapes)
is isolated (Unicode LRI ... PDI), so that its order survives inside the right-to-left sentence.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Language:
    name: str  # as its readers write it
    direction: str  # "ltr" or "rtl"
    english: str  # its name in English (the setup line's comment, in the English code)


LANGUAGES = MappingProxyType(
    {
        "en": Language("English", "ltr", "English"),
        "it": Language("Italiano", "ltr", "Italian"),
        "ru": Language("Русский", "ltr", "Russian"),
        "fa": Language("فارسی", "rtl", "Persian"),
        "es": Language("Español", "ltr", "Spanish"),
    }
)
TRANSLATED = tuple(code for code in LANGUAGES if code != "en")

ENGLISH = MappingProxyType(
    {
        "correct": "correct!",
        "not_yet": "not yet: {problem}.",
        "hint": "Hint: {hint}",
        "not_attempted": (
            "not attempted yet: replace `raise NotImplementedError` with your code"
            " (stuck? `helpers.hint({name!r})`)."
        ),
        "no_answer": "not attempted yet: replace `None` with your answer (stuck? `helpers.hint({name!r})`).",
        "no_hint": "no hint for this one: `helpers.solution({name!r})` shows a worked answer.",
        "raised": "your code raised {error}: {message}.",
        "returned_none": "your function returned None (is `return` missing?)",
        "wants_function": "your answer should be a function (its name, without calling it), got {kind}",
        # the diagnoses of helpers.course.exercises.compare: {what} is "your answer" or a phrase of PHRASES
        "not_right": "{what} is {value}, which is not right",
        "not_whole": "{what} is {value}, but it should be a whole number",
        "not_exact": (
            "{what} is {value}, close but not exact: give the exact value "
            "(an expression such as 2/3 or math.sqrt(2) is fine)"
        ),
        "number_got_tensor": "{what} should be a number, got a tensor of dtype {dtype}",
        "number_got_array": "{what} should be a number, got a numpy array of dtype {dtype}",
        "single_got_tensor": "{what} should be a single number, got a tensor of shape {shape}",
        "single_got_array": "{what} should be a single number, got a numpy array of shape {shape}",
        "number_got_bool": "{what} should be a number, got the bool {value}",
        "number_got_function": (
            "{what} should be a number, got a function: call it, or write the value itself"
        ),
        "number_got_string": "{what} should be a number, got the string {value}: remove the quotes",
        "number_got_type": "{what} should be a number, got {kind}",
        "wants_tensor": "{what} should be a torch.Tensor, got {kind}",
        "wrong_shape": "{what} has shape {shape}, expected {expected}",
        "wrong_dtype": "{what} has dtype {dtype}, expected {expected}",
        "wrong_values": "{what} has the right shape but wrong values (max difference {difference})",
        "wants_tuple": "{what} should be a tuple of {n} values, got {kind}",
        "tuple_length": "{what} should be a tuple of {n} values, got {got} values",
        "your_answer": "your answer",
        "answer": "answer",  # solution()'s last line: "answer: 16640"
        "cannot_draw": "Cannot draw this: {error}",  # a widget whose values cannot be drawn
    }
)

_current = "en"


def use_language(code: str) -> None:
    """Give `check`'s verdicts and hints in language `code` from now on ("en", "it", "ru", "fa", "es")."""
    global _current
    if code not in LANGUAGES:
        raise ValueError(f"use_language: unknown language {code!r}; the course has {', '.join(LANGUAGES)}")
    _current = code


def current() -> str:
    return _current


def _words(code: str):
    return importlib.import_module(f"{__package__}.words.{code}")


def verdict(key: str, **fields: str) -> str:
    """The verdict phrase `key` in the current language, its fields filled in."""
    table = ENGLISH if _current == "en" else _words(_current).VERDICTS
    return table[key].format(**fields)


def hint_text(exercise: str, english: str) -> str:
    """The hint of `exercise` in the current language (English when it has none there)."""
    if _current == "en" or not english:
        return english
    return _words(_current).HINTS.get(exercise, english)


def worked_text(exercise: str, english: str) -> str:
    """The worked answer of `exercise` (solution()) in the current language (English when it has none)."""
    if _current == "en" or not english:
        return english
    return getattr(_words(_current), "WORKED", {}).get(exercise, english)


def phrase(english: str) -> str:
    """A fixed English phrase of a diagnosis ("your answer", "its result on ...") in the current
    language; `what[1]` keeps its index. English, as is, when the language has no such phrase."""
    if _current == "en":
        return english
    base, index = re.fullmatch(r"(.*?)((?:\[\d+\])*)", english, re.S).groups()
    words = _words(_current)
    found = words.VERDICTS["your_answer"] if base == ENGLISH["your_answer"] else words.PHRASES.get(base)
    return english if found is None else found + index


def sentence(english: str) -> str:
    """A sentence of an exercise's rule in the current language: the first of SENTENCES whose
    English template ({name} stands for any text) matches it whole; English when none does."""
    if _current == "en":
        return english
    for template, translation in _words(_current).SENTENCES.items():
        parts = re.split(r"\{(\w+)\}", template)
        pattern = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
        if found := re.fullmatch(pattern, english, re.S):
            return translation.format(**{k: phrase(v) for k, v in found.groupdict().items()})
    return english


def label(english: str) -> str:
    """A widget control's label in the current language (as is when it has none there)."""
    return english if _current == "en" else _words(_current).LABELS.get(english, english)


def words(name: str):
    """The table `name` (e.g. "COURSE_MAP") of the current language's words; None in English."""
    return None if _current == "en" else getattr(_words(_current), name)


# A run of text with no right-to-left letter in it (Arabic script, Persian's ZWNJ, guillemets, line
# breaks end it); isolated from its first strong left-to-right character or digit (or an opening bracket,
# quote or minus before one) to its last (or a closing bracket or quote after it).
_RUN = re.compile(r"[^\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufeff\u200c«»\n]+")
_OPENS = re.compile(r"[([{'\"`\-−]*[A-Za-z0-9\u00c0-\u024f\u0370-\u03ff\u2200-\u22ff√∞]")
_CLOSES = re.compile(r"[A-Za-z0-9\u00c0-\u024f\u0370-\u03ff\u2200-\u22ff√∞][)\]}'\"`%!^*]*")
LRI, RLI, PDI = "\u2066", "\u2067", "\u2069"


def isolated(text: str) -> str:
    """`text` for a right-to-left reader: each run of left-to-right text (code, numbers, shapes)
    between LRI and PDI, so that a renderer keeps its order inside the right-to-left sentence."""

    def isolate(match: re.Match) -> str:
        run = match.group()
        first = _OPENS.search(run)
        if first is None:  # punctuation and spaces only
            return run
        last = list(_CLOSES.finditer(run, first.start()))[-1]
        return f"{run[: first.start()]}{LRI}{run[first.start() : last.end()]}{PDI}{run[last.end() :]}"

    return _RUN.sub(isolate, text)


def for_reader(text: str) -> str:
    """A message as the current language's reader reads it: in a right-to-left language, the whole
    line isolated right to left and every left-to-right run in it isolated left to right."""
    if LANGUAGES[_current].direction != "rtl":
        return text
    return f"{RLI}{isolated(text)}{PDI}"


def language_line(code: str, notebook: str) -> str:
    """The switcher line at the top of notebook `notebook` (e.g. "00_start_here.ipynb") in language `code`.

    In a right-to-left language each name is isolated in its own direction (<span dir=...>): else the
    left-to-right names run together and the line reads in a scrambled order."""
    parts = []
    for other, language in LANGUAGES.items():
        if other == code:
            part = f"**{language.name}**"
        else:
            here = "" if code == "en" else "../"
            there = "" if other == "en" else f"{other}/"
            part = f"[{language.name}]({here}{there}{notebook})"
        parts.append(isolate_name(part, other) if LANGUAGES[code].direction == "rtl" else part)
    return "🌐 " + " · ".join(parts)


def isolate_name(markdown: str, code: str) -> str:
    """A language's name (a link, or the bold current one) isolated in that language's direction."""
    return f'<span dir="{LANGUAGES[code].direction}">{markdown}</span>'


def setup_line(code: str) -> str:
    """The line a translated notebook adds to its first code cell."""
    return f'helpers.use_language("{code}")  # the helpers answer in {LANGUAGES[code].english}'
