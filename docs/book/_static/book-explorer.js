/* The course's widgets without a kernel: plain HTML controls that swap in precomputed frames.
 *
 * Each <figure class="book-explorer"> holds its controls (<input type="range">, one per control of
 * the notebook's Explorer, its values in data-values), an <img> and the frames as JSON: by the
 * controls' positions joined with ",", {"src", "alt"} of a PNG or {"text"} of a message. Where the
 * book rendered only one control moved at a time (data-grid="0"), moving a control puts the others
 * back at their defaults, as the note under the widget says. No Python, no widget library.
 */
(function () {
  "use strict";
  function setUp(widget) {
    var frames = JSON.parse(widget.querySelector("script.book-explorer-frames").textContent);
    var grid = widget.getAttribute("data-grid") === "1";
    var inputs = Array.prototype.slice.call(widget.querySelectorAll("input.book-explorer-input"));
    var img = widget.querySelector("img.book-explorer-frame");
    var text = widget.querySelector(".book-explorer-text");
    function show(input) {
      var values = JSON.parse(input.getAttribute("data-values"));
      var shown = values[Number(input.value)];
      input.setAttribute("aria-valuetext", shown);
      var out = widget.querySelector('output[for="' + input.id + '"]');
      if (out) out.textContent = shown;
    }
    function moved(event) {
      if (!grid) {
        inputs.forEach(function (other) {
          if (other !== event.target && other.value !== other.getAttribute("data-default")) {
            other.value = other.getAttribute("data-default");
            show(other);
          }
        });
      }
      show(event.target);
      var key = inputs.map(function (i) { return i.value; }).join(",");
      var frame = frames[key];
      if (!frame) return;
      if (frame.text !== undefined) {
        img.hidden = true;
        text.hidden = false;
        text.textContent = frame.text;
      } else {
        img.src = frame.src;
        img.alt = frame.alt;
        img.hidden = false;
        text.hidden = true;
      }
      widget.setAttribute("data-frame", key);
    }
    inputs.forEach(function (input) {
      input.addEventListener("input", moved);
      show(input);
    });
  }
  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("figure.book-explorer"), setUp);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
