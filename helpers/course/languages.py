"""The course's languages: their names and direction, the switcher line, and the words of `check`.

English is the source; notebooks/<lang>/ holds the other languages (tools/translations.py builds
them from the English notebooks). A translated notebook calls `helpers.use_language(lang)` once,
in its first code cell, and `helpers.check` then gives its verdicts and hints in that language.
The words live in helpers/course/words/<lang>.py: VERDICTS (the same keys as ENGLISH below) and
HINTS (one per exercise that has an English hint).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Language:
    name: str  # as its readers write it
    direction: str  # "ltr" or "rtl"


LANGUAGES = MappingProxyType(
    {
        "en": Language("English", "ltr"),
        "it": Language("Italiano", "ltr"),
        "ru": Language("Русский", "ltr"),
        "fa": Language("فارسی", "rtl"),
        "es": Language("Español", "ltr"),
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


def language_line(code: str, notebook: str) -> str:
    """The switcher line at the top of notebook `notebook` (e.g. "00_start_here.ipynb") in language `code`."""
    parts = []
    for other, language in LANGUAGES.items():
        if other == code:
            parts.append(f"**{language.name}**")
            continue
        here = "" if code == "en" else "../"
        there = "" if other == "en" else f"{other}/"
        parts.append(f"[{language.name}]({here}{there}{notebook})")
    return "🌐 " + " · ".join(parts)


def setup_line(code: str) -> str:
    """The line a translated notebook adds to its first code cell."""
    return f'helpers.use_language("{code}")  # helpers.check answers in {LANGUAGES[code].name}'
