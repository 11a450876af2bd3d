/* chessfed's game viewer (issue 48): steps the board of a game page (templates/game.html)
   through the positions its moves carry. No library, nothing fetched: the page works from disk
   and offline. The board is python-chess's SVG of the final position; this script moves its
   pieces (<use> of the piece definitions, the missing ones taken from <template id="pieces">)
   and marks the last move's squares. Without it the page shows the final position. */
(function () {
  "use strict";
  var box = document.getElementById("board");
  var svg = box && box.querySelector("svg");
  if (!svg || !("content" in document.createElement("template"))) { return; }
  var NS = "http://www.w3.org/2000/svg", XLINK = "http://www.w3.org/1999/xlink";
  var NAMES = { p: "pawn", n: "knight", b: "bishop", r: "rook", q: "queen", k: "king" };
  var SIZE = 45;  /* python-chess's square, in the board's own units */
  var moves = Array.prototype.slice.call(document.querySelectorAll("#moves .move"));
  var status = document.getElementById("board-status");
  var margin = (svg.viewBox.baseVal.width - 8 * SIZE) / 2;
  var defs = svg.querySelector("defs");
  if (!defs) { defs = svg.insertBefore(document.createElementNS(NS, "defs"), svg.firstChild); }
  var pieces = document.getElementById("pieces");
  Array.prototype.forEach.call(pieces.content.querySelectorAll("g[id]"), function (g) {
    if (!svg.querySelector("defs [id='" + g.id + "']")) { defs.appendChild(document.importNode(g, true)); }
  });
  var squares = {};
  Array.prototype.forEach.call(svg.querySelectorAll("rect.square"), function (r) {
    squares[r.classList[r.classList.length - 1]] = r;
  });
  var current = moves.length;

  function show(ply) {
    ply = Math.max(0, Math.min(moves.length, ply));
    var move = ply ? moves[ply - 1] : null;
    var fen = move ? move.getAttribute("data-fen") : box.getAttribute("data-start");
    var last = move ? move.getAttribute("data-uci") : "";
    Array.prototype.forEach.call(svg.querySelectorAll("use"), function (u) { u.parentNode.removeChild(u); });
    fen.split(" ")[0].split("/").forEach(function (row, r) {
      var file = 0;
      row.split("").forEach(function (ch) {
        if (/[1-8]/.test(ch)) { file += parseInt(ch, 10); return; }
        var id = (ch === ch.toUpperCase() ? "white-" : "black-") + NAMES[ch.toLowerCase()];
        var use = document.createElementNS(NS, "use");
        use.setAttribute("href", "#" + id);
        use.setAttributeNS(XLINK, "xlink:href", "#" + id);
        use.setAttribute("transform", "translate(" + (margin + file * SIZE) + ", " + (margin + r * SIZE) + ")");
        svg.appendChild(use);
        file += 1;
      });
    });
    Object.keys(squares).forEach(function (name) {
      var rect = squares[name];
      var shade = rect.classList.contains("light") ? "light" : "dark";
      var marked = last && (name === last.slice(0, 2) || name === last.slice(2, 4));
      rect.setAttribute("fill", box.getAttribute("data-" + shade + (marked ? "-lastmove" : "")));
    });
    moves.forEach(function (m, i) {
      m.classList.toggle("current", i === ply - 1);
      if (i === ply - 1) { m.setAttribute("aria-current", "step"); } else { m.removeAttribute("aria-current"); }
    });
    box.setAttribute("data-fen", fen);
    box.setAttribute("data-ply", String(ply));
    status.textContent = move ? "After " + move.getAttribute("data-said") : "Start position";
    current = ply;
  }

  moves.forEach(function (m, i) { m.addEventListener("click", function () { show(i + 1); }); });
  var steps = { first: function () { return 0; }, prev: function () { return current - 1; },
                next: function () { return current + 1; }, last: function () { return moves.length; } };
  var controls = document.getElementById("controls");
  Array.prototype.forEach.call(controls.querySelectorAll("button[data-step]"), function (b) {
    b.addEventListener("click", function () { show(steps[b.getAttribute("data-step")]()); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) { return; }
    var to = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
    if (to) { e.preventDefault(); show(steps[to]()); }
  });
  controls.hidden = false;
  show(moves.length);
}());
