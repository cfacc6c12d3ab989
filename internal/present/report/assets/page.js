"use strict";
(function () {
  // Outcome filter of the index page: show the records of one outcome.
  var buttons = document.querySelectorAll("button.filter");
  function apply(outcome) {
    var shown = 0;
    document.querySelectorAll("[data-outcome]").forEach(function (el) {
      if (el.id === "outcome") { return; }
      var keep = outcome === "all" || el.getAttribute("data-outcome") === outcome;
      if (keep) { el.removeAttribute("hidden"); } else { el.setAttribute("hidden", ""); }
      if (keep && el.classList.contains("record")) { shown++; }
    });
    buttons.forEach(function (b) {
      var on = b.getAttribute("data-filter") === outcome;
      b.classList.toggle("active", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    var note = document.getElementById("shown");
    if (note) { note.textContent = outcome === "all" ? "" : shown + " shown (" + outcome + ")"; }
  }
  buttons.forEach(function (b) {
    b.addEventListener("click", function () { apply(b.getAttribute("data-filter")); });
  });
  var m = /^#outcome=([a-z_]+)$/.exec(location.hash);
  if (m) { apply(m[1]); }
  // A link to an iteration opens it.
  function openTarget() {
    var t = location.hash && document.getElementById(location.hash.slice(1));
    if (t && t.tagName === "DETAILS") { t.open = true; }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();
  document.documentElement.setAttribute("data-script", "ran");
})();
