"""Drive the course's notebooks in a real browser: JupyterLab + headless Chromium.

Used by tests/project/test_browser.py. Everything here is a context manager, so the server,
its kernels and the browser are always shut down, also when a test fails.

    with jupyter_lab(copy_of="notebooks") as lab, chromium() as browser:
        page = open_notebook(browser, lab, "00_start_here.ipynb")
        run_all(page)
        for explorer in explorers(page): ...
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
REDRAW_JSON = ARTIFACTS / "browser_redraw.json"
EXPLORER_PREFIX = "Explorer("  # helpers.course.widgets.Explorer.__repr__, the widget's text/plain
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


# --------------------------------------------------------------------------- what to test
def find_chromium() -> str | None:
    """$CHROMIUM if set (and nothing else), else Debian's chromium; None when there is none.
    Never downloads a browser."""
    candidates = (
        [os.environ["CHROMIUM"]]
        if os.environ.get("CHROMIUM")
        else ["chromium", "chromium-browser", "/usr/bin/chromium"]
    )
    return next((found for c in candidates if (found := shutil.which(c))), None)


def explorer_names(ipynb: Path) -> list[str]:
    """The Explorer widgets a built notebook displays, in order (from their text/plain)."""
    return [name for name, _ in explorers_in(ipynb)]


def explorers_in(ipynb: Path) -> list[tuple[str, str]]:
    """(Explorer name, the factory that made it) for each Explorer a built notebook shows.

    The factory is the registered name (`helpers.course.widgets.EXPLORERS`) called in the cell, as
    the benchmark names widgets; the Explorer's own name when the cell calls none."""
    try:
        from helpers.course.widgets import EXPLORERS

        factories = list(EXPLORERS)
    except Exception:  # a broken helpers package must not stop test collection
        factories = []
    nb = json.loads(ipynb.read_text(encoding="utf-8"))
    found = []
    for cell in nb["cells"]:
        source = "".join(cell.get("source", ""))
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            text = "".join(data.get("text/plain", ""))
            if "application/vnd.jupyter.widget-view+json" in data and text.startswith(EXPLORER_PREFIX):
                name = text[len(EXPLORER_PREFIX) :].split(":")[0].rstrip(")")
                called = [k for k in factories if re.search(rf"\b{re.escape(k)}\s*\(", source)] or re.findall(
                    r"\b(explore_\w+)\s*\(", source
                )
                found.append((name, called[-1] if called else name))
    return found


def notebooks_with_widgets() -> list[Path]:
    return [p for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) if explorer_names(p)]


# --------------------------------------------------------------------------- the server
@dataclass
class Lab:
    url: str
    token: str
    root: Path

    def api(self, method: str, path: str) -> object:
        req = urllib.request.Request(
            f"{self.url}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            body = r.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """End every session and kernel: the next page finds no notebook attached to a dead kernel."""
        for session in self.api("GET", "/api/sessions"):
            with contextlib.suppress(Exception):
                self.api("DELETE", f"/api/sessions/{session['id']}")
        for kernel in self.api("GET", "/api/kernels"):
            with contextlib.suppress(Exception):
                self.api("DELETE", f"/api/kernels/{kernel['id']}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def jupyter_lab(copy_of: Path = NOTEBOOKS, timeout: float = 90, custom_css: bool = True):
    """JupyterLab on a free local port with a token, serving a temporary copy of `copy_of`.

    custom_css=True loads tools/templates/rtl.css, as `make lab LANG=fa` does; custom_css=False is a
    plain JupyterLab, as a learner's own or VS Code's would be: what the notebooks' markup does alone.

    Running the notebooks in the browser therefore never touches the committed files.
    The server's settings, workspaces and runtime files live in the same temporary
    directory, so nothing on this machine (saved layouts) gets in the way. No news pop-up:
    `make setup` installs the course's JupyterLab overrides into .venv, as for `make lab`.
    """
    with tempfile.TemporaryDirectory(prefix="why-transformers-lab-") as tmp:
        tmp = Path(tmp)
        root = tmp / "notebooks"
        shutil.copytree(copy_of, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        for sub in ("config", "data", "runtime", "settings", "workspaces"):
            (tmp / sub).mkdir()
        if custom_css:  # as `make lab LANG=fa`
            (tmp / "config" / "custom").mkdir()
            shutil.copy(ROOT / "tools" / "templates" / "rtl.css", tmp / "config" / "custom" / "custom.css")
        token, port = secrets.token_hex(16), free_port()
        env = {
            **os.environ,
            "JUPYTER_CONFIG_DIR": str(tmp / "config"),
            "JUPYTER_DATA_DIR": str(tmp / "data"),
            "JUPYTER_RUNTIME_DIR": str(tmp / "runtime"),
            "JUPYTER_PLATFORM_DIRS": "1",
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
            "MPLBACKEND": "Agg",
        }
        jupyter = Path(sys.executable).with_name("jupyter")
        cmd = [
            str(jupyter),
            "lab",
            "--no-browser",
            f"--port={port}",
            "--ip=127.0.0.1",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}",
            "--ServerApp.open_browser=False",
            "--LabApp.expose_app_in_browser=True",
            f"--LabApp.user_settings_dir={tmp / 'settings'}",
            f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
            "--LabApp.news_url=",
            f"--LabApp.custom_css={custom_css}",
            "--LabApp.extension_manager=readonly",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")  # containers and CI runners often run as root
        log = open(tmp / "server.log", "w")
        proc = subprocess.Popen(
            cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        lab = Lab(url=f"http://127.0.0.1:{port}", token=token, root=root)
        try:
            deadline = time.monotonic() + timeout
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"JupyterLab exited:\n{(tmp / 'server.log').read_text()[-3000:]}")
                with contextlib.suppress(Exception):
                    lab.api("GET", "/api/status")
                    break
                if time.monotonic() > deadline:
                    raise TimeoutError(
                        f"JupyterLab did not start in {timeout} s:\n"
                        f"{(tmp / 'server.log').read_text()[-3000:]}"
                    )
                time.sleep(0.3)
            yield lab
        finally:
            with contextlib.suppress(Exception):
                lab.shutdown_kernels()
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=15)
            log.close()


# --------------------------------------------------------------------------- the browser
@contextlib.contextmanager
def chromium(executable: str, width: int = 1280, height: int = 900):
    """Headless Chromium driven by Playwright (never `playwright install`)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": width, "height": height})
            yield context
        finally:
            browser.close()


# --------------------------------------------------------------------------- in the page
_JS_EXPLORERS = """
() => Array.from(document.querySelectorAll('.jp-OutputArea-output > .widget-vbox'))
      .filter(e => !e.parentElement.closest('.widget-output') && e.querySelector(':scope > .widget-output'))
"""
# An element handle stays valid while JupyterLab keeps the view; we address explorers by index.
_JS_MARK = """
(marker) => { (%s)().forEach((e, i) => e.setAttribute('data-explorer', marker + i)); }
""" % _JS_EXPLORERS.strip()

# Arm a watch on one explorer's output: the next keydown/change starts the clock; the clock
# stops when the output differs from now and its new figure is decoded and painted.
_JS_ARM = """
(sel) => {
  const out = document.querySelector(sel + ' > .widget-output');
  const state = {t0: null, t1: null, before: out.innerHTML, text: null};
  window.__redraw = state;
  const start = () => { if (state.t0 === null) state.t0 = performance.now(); };
  document.addEventListener('keydown', start, {capture: true, once: true});
  document.addEventListener('change', start, {capture: true, once: true});
  const done = () => requestAnimationFrame(() => { state.t1 = performance.now(); state.text = out.textContent; });
  const obs = new MutationObserver(() => {
    if (state.t0 === null) { state.before = out.innerHTML; return; }   // not ours: before the move
    if (out.innerHTML === state.before || !out.querySelector('.jp-OutputArea-output')) return;
    obs.disconnect();
    const img = out.querySelector('img');
    if (img) img.decode().then(done, done); else done();
  });
  obs.observe(out, {subtree: true, childList: true, attributes: true, characterData: true});
}
"""

_JS_ERRORS = """
() => {
  const found = [];
  for (const e of document.querySelectorAll('[data-mime-type="application/vnd.jupyter.stderr"]')) {
    const t = e.textContent;
    if (/Traceback|Error|Exception/.test(t)) found.push(t.slice(0, 800));
  }
  for (const e of document.querySelectorAll('.jp-OutputArea-output')) {
    const t = e.textContent;
    if (/Error displaying widget|Error rendering|Cannot draw this|model not found/.test(t)) found.push(t.slice(0, 800));
  }
  return found;
}
"""


def open_notebook(context, lab: Lab, name: str, timeout_ms: int = 120_000):
    """A new tab with notebook `name` open and its kernel ready."""
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    # ?reset: start from an empty workspace, not one that reopens the previous test's notebook
    page.goto(f"{lab.url}/lab/tree/{name}?reset&token={lab.token}")
    page.wait_for_function(
        "() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
        " return w && w.context && w.context.path.endsWith(" + json.dumps(name) + "); }",
        timeout=timeout_ms,
    )
    page.evaluate(
        "async () => { const w = window.jupyterapp.shell.currentWidget;"
        " await w.context.ready; await w.sessionContext.ready; }"
    )
    return page


def run_all(page, timeout_ms: int = 180_000) -> bool:
    """Run all cells; True when every cell ran without an error."""
    page.set_default_timeout(timeout_ms)
    ok = page.evaluate("async () => await window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.set_default_timeout(30_000)
    return bool(ok)


def error_outputs(page) -> list[str]:
    """Tracebacks and widget errors shown anywhere in the page, plus uncaught JS errors."""
    return page.evaluate(_JS_ERRORS) + [f"JavaScript: {e}" for e in page.js_errors]


def explorers(page, expected: int, timeout_ms: int = 60_000) -> list[str]:
    """CSS selectors of the live Explorer widgets, once `expected` of them show an output."""
    page.wait_for_function(
        "(n) => { const ex = (%s)(); return ex.length === n && ex.every("
        "e => e.querySelector(':scope > .widget-output .jp-OutputArea-output')); }" % _JS_EXPLORERS.strip(),
        arg=expected,
        timeout=timeout_ms,
    )
    page.evaluate(_JS_MARK, "explorer-")
    return [f'[data-explorer="explorer-{i}"]' for i in range(expected)]


@dataclass
class Control:
    kind: str  # "slider", "dropdown", "checkbox"
    label: str
    selector: str  # the element that takes the input


def controls(page, explorer: str) -> list[Control]:
    """The controls above an explorer's output, in order."""
    found = page.evaluate(
        """(sel) => {
      const box = document.querySelector(sel);
      const row = box.querySelector(':scope > .widget-hbox');   // Explorer: VBox([HBox(controls), Output])
      const items = [...(row ? row.children : []),
                     ...Array.from(box.children).filter(e => e !== row && !e.classList.contains('widget-output'))];
      return items.map((e, i) => {
        const label = (e.querySelector('.widget-label') || {}).textContent || '';
        e.setAttribute('data-control', String(i));
        const kind = e.querySelector('.noUi-handle') ? 'slider' : e.querySelector('select') ? 'dropdown'
                   : e.querySelector('input[type=checkbox]') ? 'checkbox' : 'other';
        return [kind, label.trim()];
      });
    }""",
        explorer,
    )
    inner = {
        "slider": " .noUi-handle",
        "dropdown": " select",
        "checkbox": " input[type=checkbox]",
        "other": "",
    }
    return [
        Control(kind, label, f'{explorer} [data-control="{i}"]{inner[kind]}')
        for i, (kind, label) in enumerate(found)
    ]


def tied_labels(page, explorer: str) -> list[str]:
    """Per control of an explorer, the text of the <label for=...> tied to its input or select:
    what a screen reader announces for it ("" when nothing is tied)."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel + ' [data-control]')].map(e =>
          [...e.querySelectorAll('input, select')].flatMap(f => [...(f.labels || [])])
            .map(l => l.textContent.trim()).filter(t => t).join(' '))""",
        explorer,
    )


SLIDER_KEYS = ("ArrowRight", "ArrowRight", "ArrowLeft", "End")  # End (or Home): a visible change
_OPPOSITE = {"ArrowRight": "ArrowLeft", "ArrowLeft": "ArrowRight", "End": "Home", "Home": "End"}


def move(page, control: Control, step: int) -> None:
    """Change a control, the way a learner would: arrow keys on a slider, a dropdown's next
    option, a click on a checkbox. Step `step` of `len(SLIDER_KEYS)`."""
    el = page.locator(control.selector).first
    if control.kind == "slider":
        low, now, top = (float(el.get_attribute(f"aria-value{a}")) for a in ("min", "now", "max"))
        key = SLIDER_KEYS[step % len(SLIDER_KEYS)]
        if key == "End" and now > (low + top) / 2:
            key = "Home"  # to the far end, so "after" differs from "before"
        if (key in ("ArrowRight", "End") and now >= top) or (key in ("ArrowLeft", "Home") and now <= low):
            key = _OPPOSITE[key]
        el.focus()
        el.press(key)
    elif control.kind == "dropdown":
        options = el.evaluate("s => Array.from(s.options).map(o => o.value)")
        current = el.evaluate("s => s.value")
        el.select_option(options[(options.index(current) + 1) % len(options)])
    elif control.kind == "checkbox":
        el.click()
    else:
        raise NotImplementedError(f"no way to move a control of kind {control.kind!r}")


def timed_move(
    page, explorer: str, control: Control, step: int, timeout_ms: int = 30_000
) -> tuple[float, str]:
    """Move `control` once; the milliseconds until the new output is painted, and its text."""
    page.evaluate(_JS_ARM, explorer)
    move(page, control, step)
    page.wait_for_function("() => window.__redraw.t1 !== null", timeout=timeout_ms)
    state = page.evaluate("() => window.__redraw")
    return state["t1"] - state["t0"], state["text"]


_JS_KERNEL_PRINT = """
async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  let out = '';
  const future = kernel.requestExecute({code, silent: false, store_history: false});
  future.onIOPub = (msg) => { if (msg.header.msg_type === 'stream' && msg.content.name === 'stdout') out += msg.content.text; };
  await future.done;
  return out;
}
"""


def kernel_redraw_ms(page, name: str) -> float | None:
    """The kernel's own time for the last redraw of Explorer `name` (its `last_redraw_s`), ms:
    what the browser measures minus this is the browser's and the messages' share."""
    code = (
        "import gc as _gc, json as _json, warnings as _w\nfrom helpers.course.widgets import Explorer as _E\n"
        "with _w.catch_warnings():\n"
        "    _w.simplefilter('ignore')\n"
        f"    _found = [e for e in _gc.get_objects() if isinstance(e, _E) and e.name == {name!r}]\n"
        "print(_json.dumps(max(_found, key=lambda e: e.redraws).last_redraw_s * 1000 if _found else None))\n"
        "del _gc, _json, _w, _E, _found"
    )
    out = page.evaluate(_JS_KERNEL_PRINT, code).strip()
    return json.loads(out) if out else None
