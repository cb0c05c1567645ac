// guandan-dup live: the director's console. Draws the round's table x set grid and the queue
// of sets waiting for verification or disputed from the Desk's answers, and keeps them live:
// each event of GET /api/v1/stream (the director's, by the console's cookie) loads the
// round's progress and queue again. The ledger form shows the fields of the kind chosen.
window.GuandanLive.page(function (G, L, el, fmt) {
  "use strict";

  var data = JSON.parse(document.getElementById("console-data").textContent);
  var round = data.round;
  var STATES = ["missing", "entered", "verified", "disputed"];

  function stateText(state) { return L["state_" + state] || state; }

  // Fill the correction form with a table's set and bring it into view.
  function prefill(table, set, levels) {
    var form = document.getElementById("correct-form");
    form.elements.table.value = String(table);
    form.elements.set.value = String(set);
    if (levels) {
      form.elements.ns_level.value = levels.ns;
      form.elements.ew_level.value = levels.ew;
    }
    form.scrollIntoView({block: "center"});
    form.elements.reason.focus();
  }

  function drawGrid(progress) {
    var tables = [], sets = [], state = {};
    progress.sets.forEach(function (cell) {
      if (tables.indexOf(cell.table) < 0) { tables.push(cell.table); }
      if (sets.indexOf(cell.set) < 0) { sets.push(cell.set); }
      state[cell.table + "/" + cell.set] = cell.state;
    });
    tables.sort(function (a, b) { return a - b; });
    sets.sort(function (a, b) { return a - b; });
    var counts = {};
    STATES.forEach(function (s) { counts[s] = 0; });
    progress.sets.forEach(function (cell) { counts[cell.state] = (counts[cell.state] || 0) + 1; });
    var line = document.getElementById("counts");
    G.fill(line, STATES.map(function (s) {
      return el("span", {class: "count-" + s, dataset: {state: s}}, stateText(s) + " " + counts[s]);
    }));
    G.fill(document.getElementById("grid"),
      el("thead", {}, el("tr", {}, el("th", {class: "num"}, L.table),
        sets.map(function (s) { return el("th", {}, fmt(L.set_n, {n: s})); }))),
      el("tbody", {}, tables.map(function (t) {
        return el("tr", {}, el("th", {class: "num"}, String(t)), sets.map(function (s) {
          var st = state[t + "/" + s];
          if (st === undefined) { return el("td", {}, ""); }
          return el("td", {class: "cell state-" + st, id: "cell-" + t + "-" + s,
                           dataset: {table: String(t), set: String(s), state: st},
                           title: fmt(L.cell_title, {table: t, set: s}),
                           onclick: function () { prefill(t, s); }}, stateText(st));
        }));
      })));
  }

  function postForm(action, fields) {
    return el("form", {method: "post", action: "/director/" + action, class: "inline-form"},
      el("input", {type: "hidden", name: "csrf", value: data.csrf}),
      el("input", {type: "hidden", name: "round", value: String(round)}),
      el("input", {type: "hidden", name: "view", value: String(round)}),
      Object.keys(fields).map(function (name) {
        return el("input", {type: "hidden", name: name, value: String(fields[name])});
      }),
      el("button", {type: "submit", class: "secondary"}, L["queue_" + action]));
  }

  function drawQueue(queue) {
    var table = document.getElementById("queue");
    document.getElementById("queue-empty").hidden = queue.length > 0;
    table.hidden = queue.length === 0;
    G.fill(table,
      el("thead", {}, el("tr", {}, el("th", {class: "num"}, L.table), el("th", {class: "num"}, L.set),
        el("th", {}, L.state), el("th", {}, L.levels), el("th", {}, L.note), el("th", {}, ""))),
      el("tbody", {}, queue.map(function (item) {
        var levels = item.levels || null;
        return el("tr", {class: "state-" + item.state, dataset: {table: String(item.table), set: String(item.set)}},
          el("td", {class: "num"}, String(item.table)), el("td", {class: "num"}, String(item.set)),
          el("td", {}, el("span", {class: "state-badge state-" + item.state}, stateText(item.state))),
          el("td", {}, levels ? fmt(L.levels_pair, levels) : "—"),
          el("td", {}, item.note || "", item.stored === false ?
            el("span", {class: "not-stored"}, fmt(L.not_stored, {why: item.problem || ""})) : null),
          el("td", {class: "queue-actions"},
            item.state !== "verified" && item.complete ? postForm("verify", {table: item.table, set: item.set}) : null,
            el("button", {type: "button", class: "secondary",
                          onclick: function () { prefill(item.table, item.set, levels); }}, L.queue_correct)));
      })));
  }

  var loading = false, again = false;
  function load() {
    if (loading) { again = true; return; }
    loading = true;
    var base = "/api/v1/rounds/" + round;
    Promise.all([G.request("GET", base + "/progress", {}), G.request("GET", base + "/queue", {})])
      .then(function (answers) {
        if (answers[0].status === 200) { drawGrid(answers[0].body); }
        if (answers[1].status === 200) {
          var body = answers[1].body;
          drawQueue(Array.isArray(body) ? body : (body.queue || body.sets || []));
        }
      }, function () {})
      .then(function () {
        loading = false;
        if (again) { again = false; load(); }
      });
  }

  function live(on) { document.getElementById("live").classList.toggle("off", !on); }

  // The director's stream (the console's cookie) sends the round's progress on every change:
  // the grid is drawn from it at once, the queue loaded again.
  if (window.EventSource) {
    var stream = new EventSource("/api/v1/stream?round=" + round);
    stream.onopen = function () { live(true); };
    stream.onerror = function () { live(false); };
    stream.addEventListener("progress", function (event) {
      live(true);
      drawGrid(JSON.parse(event.data));
      load();
    });
    stream.addEventListener("ping", function () { live(true); });
  }
  // Without the stream (a proxy in the way), the grid still follows, more slowly.
  window.setInterval(function () { if (document.getElementById("live").classList.contains("off")) { load(); } }, 5000);

  // The ledger form: the fields the chosen kind takes, its required ones marked.
  var kind = document.getElementById("ledger-kind");
  var AMOUNT = ["points", "match_points", "level_points", "scale"];
  function showFields() {
    var spec = data.fields[kind.value] || {required: [], optional: []};
    function expand(names) {
      return names.reduce(function (out, n) { return out.concat(n === "amount" ? AMOUNT : [n]); }, []);
    }
    var required = expand(spec.required), optional = expand(spec.optional);
    Array.prototype.forEach.call(document.querySelectorAll("#ledger-form [data-field]"), function (label) {
      var name = label.getAttribute("data-field");
      label.hidden = required.indexOf(name) < 0 && optional.indexOf(name) < 0;
      label.classList.toggle("required", spec.required.indexOf(name) >= 0);
    });
  }
  if (kind) { kind.addEventListener("change", showFields); showFields(); }

  Array.prototype.forEach.call(document.querySelectorAll("form[data-confirm]"), function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) { event.preventDefault(); }
    });
  });

  drawGrid(data.progress);
  drawQueue(data.queue);
});
