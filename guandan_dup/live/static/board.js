// guandan-dup live: the scoreboard (a projector in the hall; anyone's phone). It draws the
// public standings of GET /api/v1/rounds/R/standings, which count a set only once no table
// still has it to play (SPEC 10), and says how many tables each set still waits for.
// Fresh within seconds of a verification: it listens to the public event stream and loads
// the standings again on each event; while the stream is down it asks every 3 s instead.
// A field larger than the screen is shown a screenful at a time, the next every few seconds.
window.GuandanLive.page(function (G, L, el, fmt) {
  "use strict";

  var app = document.getElementById("board-app");
  var round = Number(app.dataset.round);
  if (!round) { return; }
  var every = Number(app.dataset.every) * 1000;
  var POLL = 3000;

  var data = null;
  var page = 0;
  var perPage = 0;
  var failed = false;
  var streamOpen = false;

  function percent(rate) {
    return rate === null || rate === undefined ? "—" : (rate * 100).toFixed(2) + "%";
  }

  function number(value) {
    return value === null || value === undefined ? "—" : String(value);
  }

  // The columns of a standings row, by the kind of event the answer is for.
  function columns(answer) {
    if (answer.kind === "teams" && answer.format !== "knockout") {
      return [[L.rank, "num rank", function (r) { return r.rank_label; }],
              [L.team, "name", function (r) { return r.name; }],
              [L.match_points, "num", function (r) { return number(r.match_points); }],
              [L.level_points, "num", function (r) { return number(r.level_points); }]];
    }
    if (answer.format === "knockout") {
      return [[L.rank, "num rank", function (r) { return r.rank_label; }],
              [L.player, "name", function (r) { return r.name; }]];
    }
    return [[L.rank, "num rank", function (r) { return r.rank_label; }],
            [L.player, "name", function (r) {
              return [r.name, r.name !== r.player ? el("span", {class: "pid"}, " " + r.player) : null];
            }],
            [L.cumulative, "num", function (r) { return percent(r.cumulative); }]];
  }

  function facts(answer) {
    var waiting = (answer.waiting || []).filter(function (w) { return w.tables > 0; });
    return el("div", {class: "board-facts"},
      el("span", {class: "provisional"}, answer.provisional ? L.provisional : L.final),
      waiting.length ? waiting.map(function (w) {
        return el("span", {class: "waiting-set", dataset: {set: String(w.set)}},
                  fmt(L.waiting_tables, {set: w.set, n: w.tables}));
      }) : el("span", {class: "all-in"}, L.all_in),
      answer.computed_at ? el("span", {class: "muted updated"},
        fmt(L.updated_at, {time: new Date(answer.computed_at).toLocaleTimeString()})) : null,
      failed ? el("span", {class: "offline", role: "status"}, L.board_offline) : null);
  }

  // A decided match: its result, then its winner unless the result already leads with the
  // winner (a team match reads "南京队 2 : 0 (+6)"; a pairs match "K : 5 · D04 王伟 / 李芳").
  function decided(m) {
    var result = m.result || "", winner = m.winner_name || "";
    return !winner || result.indexOf(winner) === 0 ? result : result + " · " + winner;
  }

  function matchRows(answer) {
    return (answer.matches || []).map(function (m) {
      var result = m.state === "decided" ? decided(m) : (L["match_" + m.state] || m.state);
      return el("tr", {}, el("td", {class: "num"}, number(m.table)),
        el("td", {class: "name"}, m.side_a_name || ""), el("td", {class: "name"}, m.side_b_name || ""),
        el("td", {}, result));
    });
  }

  function draw() {
    if (data === null) { return; }
    var rows = data.standings || [];
    var cols = columns(data);
    var pages = perPage ? Math.max(1, Math.ceil(rows.length / perPage)) : 1;
    if (page >= pages) { page = 0; }
    var shown = perPage ? rows.slice(page * perPage, (page + 1) * perPage) : rows;
    G.fill(app,
      el("h1", {}, L.board_title, " · ", fmt(L.round_n, {n: data.round})),
      facts(data),
      data.matches && data.matches.length ? el("div", {class: "scroll"},
        el("table", {class: "data board-table matches", id: "matches"},
          el("thead", {}, el("tr", {}, el("th", {class: "num"}, L.table),
            el("th", {colspan: "2"}, L.versus), el("th", {}, L.result))),
          el("tbody", {}, matchRows(data)))) : null,
      rows.length ? el("div", {class: "scroll"}, el("table", {class: "data board-table", id: "standings"},
        el("thead", {}, el("tr", {}, cols.map(function (c) { return el("th", {class: c[1]}, c[0]); }))),
        el("tbody", {}, shown.map(function (row) {
          return el("tr", {dataset: {position: String(row.position)}},
                    cols.map(function (c) { return el("td", {class: c[1]}, c[2](row)); }));
        })))) : (data.matches && data.matches.length ? null : el("p", {class: "notice"}, L.no_standings)),
      pages > 1 ? el("p", {class: "pager"}, fmt(L.page_of, {page: page + 1, pages: pages})) : null);
    if (!perPage && rows.length) { measure(rows.length); }
  }

  // How many rows fit under the heading: measured once from the drawn table, again when
  // the window changes size (a projector's resolution, a phone turned).
  function measure(total) {
    var table = document.getElementById("standings");
    var row = table && table.tBodies[0].rows[0];
    if (!row) { return; }
    var room = window.innerHeight - table.tBodies[0].getBoundingClientRect().top - 48;
    var fit = Math.max(5, Math.floor(room / row.getBoundingClientRect().height));
    if (fit < total) { perPage = fit; draw(); }
  }

  window.addEventListener("resize", function () { perPage = 0; draw(); });

  // /board?venue=V: that venue's players only, ranked within it
  var venue = new URLSearchParams(window.location.search).get("venue");
  var venueQuery = venue ? "?venue=" + encodeURIComponent(venue) : "";
  var loading = false;
  var again = false;
  function load() {
    if (loading) { again = true; return; }
    loading = true;
    G.request("GET", "/api/v1/rounds/" + round + "/standings" + venueQuery, {}).then(function (answer) {
      failed = answer.status !== 200;
      if (!failed) { data = answer.body; }
      finish();
    }, function () { failed = true; finish(); });
  }
  function finish() {
    loading = false;
    draw();
    if (again) { again = false; load(); }
  }

  // The public stream sends a "board" event when verified sets reach the folder (and a
  // "ping" now and then); either way the board then asks for the standings.
  if (window.EventSource) {
    var stream = new EventSource("/api/v1/stream?round=" + round);
    stream.onopen = function () { streamOpen = true; load(); };
    stream.addEventListener("board", function () { streamOpen = true; load(); });
    stream.addEventListener("ping", function () { streamOpen = true; });
    stream.onerror = function () { streamOpen = false; };
  }
  window.setInterval(function () { if (!streamOpen) { load(); } }, POLL);
  window.setInterval(function () {
    if (perPage && data && data.standings.length > perPage) { page += 1; draw(); }
  }, every);
  load();
});
