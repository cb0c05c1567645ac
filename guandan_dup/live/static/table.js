// guandan-dup live: the table's page (the QR code on the table card opens it).
// North-South enter each board by tapping the seats in the order they went out (two taps
// when partners went out first and second, 双下; three otherwise, the fourth is implied), or
// a set's final levels; the page shows the levels the server derives from them (SPEC 4).
// East-West then verify the set. Everything shown comes from the server's table view
// (GET /api/v1/rounds/R/tables/T with the table's token, the last segment of this page's
// address); entries go through the outbox (outbox.js), so none is lost or sent twice.
window.GuandanLive.page(function (G, L, el, fmt) {
  "use strict";

  var app = document.getElementById("table-app");
  var token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  var round = Number(app.dataset.round);
  var tableNo = Number(app.dataset.table);
  var api = "/api/v1/rounds/" + round + "/tables/" + tableNo;
  var LEVELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "A+"];
  var SEATS = ["N", "E", "S", "W"];
  var SEAT_KEYS = {N: "north", E: "east", S: "south", W: "west"};
  var PARTNER = {N: "S", S: "N", E: "W", W: "E"};
  var POLL = 10000;

  var view = JSON.parse(document.getElementById("view").textContent);
  var taps = {};          // set -> the seats tapped so far for its next board
  var editing = {};       // set -> the board being entered again ("change"), or true: open
  var notices = {};       // set -> [{kind: "refused" | "ok", text}]
  var disputing = {};     // set -> the note being written, while the form is open
  var tiebreakAsked = {}; // set -> true once the server said its match needs the extra boards
  var linkDead = false;   // the token was refused (401/403): revoked or another table's
  var reachable = true;   // the last request reached the server

  function headers() { return {"Authorization": "Bearer " + token}; }

  function notify(setNo, kind, text) {
    notices[setNo] = (notices[setNo] || []).concat([{kind: kind, text: text}]).slice(-3);
  }

  var outbox = new G.Outbox(
    "guandan-dup.outbox." + app.dataset.event + "." + round + "." + tableNo,
    headers,
    function (item, status, body) {
      // An answer changes what the server derives: load its view again.
      if (status !== 200 && status !== 201) {
        asksTiebreak(item.body.set, body);
        var what = item.body.board !== undefined ? fmt(L.board_n, {n: item.body.board}) + ": " : "";
        notify(item.body.set, "refused", fmt(L.refused, {what: what, why: G.refusal(status, body)}));
      }
      load();
    },
    function () {
      if (outbox.state === "unauthorised") { linkDead = true; }
      render();
    }
  );

  // ---- what the page knows: the server's view, with the entries still in the outbox ----

  function pendingOf(setNo) {
    return outbox.items().filter(function (item) { return item.body.set === setNo; })
      .map(function (item) { return item.body; });
  }

  function setOf(setNo) {
    return view.sets.filter(function (s) { return s.set === setNo; })[0];
  }

  // Board -> its entry as the page should show it: the latest still waiting to be sent,
  // else the server's.
  function boardEntries(set) {
    var out = {};
    (set.entries || []).forEach(function (entry) {
      if (entry.board !== undefined && entry.board !== null) { out[entry.board] = entry; }
    });
    pendingOf(set.set).forEach(function (entry) {
      if (entry.board !== undefined) { out[entry.board] = Object.assign({pending: true}, entry); }
    });
    return out;
  }

  function setLevelEntry(set) {
    var pending = pendingOf(set.set).filter(function (e) { return e.ns_level !== undefined; });
    if (pending.length) { return Object.assign({pending: true}, pending[pending.length - 1]); }
    var own = (set.entries || []).filter(function (e) { return e.ns_level !== undefined; });
    return own.length ? own[own.length - 1] : null;
  }

  // The board the keypad enters next: the one being changed, else the first without an
  // entry; null once the server says the set is over (or every board is in).
  function nextBoard(set) {
    if (typeof editing[set.set] === "number") { return editing[set.set]; }
    var entered = boardEntries(set);
    var waiting = pendingOf(set.set).length > 0;
    if (set.complete && !waiting) { return null; }
    if (setLevelEntry(set) && !Object.keys(entered).length) { return null; }
    for (var i = 0; i < set.boards.length; i += 1) {
      if (!entered[set.boards[i]]) { return set.boards[i]; }
    }
    return null;
  }

  function finished(seats) {
    if (seats.length === 2 && PARTNER[seats[0]] === seats[1]) { return seats.join(""); }
    if (seats.length === 3) {
      return seats.join("") + SEATS.filter(function (s) { return seats.indexOf(s) < 0; })[0];
    }
    return null;
  }

  function finishText(finish) {
    return String(finish).split("").map(function (c) { return L[c] || c; }).join(" → ");
  }

  function levelsText(ns, ew) {
    return fmt(L.levels_pair, {ns: ns, ew: ew});
  }

  function stateText(state) { return L["state_" + state] || state; }

  // Who sits in a seat for a set: the seating's player, or the ledger's substitute.
  function playing(set, seat) {
    var seats = (set && set.seats) || view.seats || {};
    var who = seats[SEAT_KEYS[seat]] || {};
    return who.substitute ? Object.assign({for: who}, who.substitute) : who;
  }

  function afterText(entry) {
    if (entry.levels) { return levelsText(entry.levels.ns, entry.levels.ew); }
    return entry.ns_level ? levelsText(entry.ns_level, entry.ew_level) : "";
  }

  // A refusal naming the extra boards' winner: the match is level (a team knockout's over
  // both rooms, which only the server sees), so the page asks for it.
  function asksTiebreak(setNo, body) {
    (body && body.problems || []).forEach(function (p) {
      if (p.field === "tiebreak") { tiebreakAsked[setNo] = true; }
    });
  }

  // Whether the set's card asks who won the extra boards: a pairs knockout's set ending
  // level, or a match the server said is level, or a winner already entered.
  function needsTiebreak(set) {
    if (!view.knockout || !set.complete) { return false; }
    var levels = set.levels || set.start;
    var pending = pendingOf(set.set).some(function (e) { return e.tiebreak !== undefined; });
    return tiebreakAsked[set.set] || pending || Boolean(set.tiebreak) ||
      (view.knockout === "pairs" && levels.ns === levels.ew);
  }

  // ---- actions ----

  function enter(setNo, body) {
    body.id = G.uuid();
    body.set = setNo;
    notices[setNo] = [];
    outbox.add(api + "/entries", body);
  }

  function tap(set, board, seat) {
    var seats = (taps[set.set] || []).concat([seat]);
    var finish = finished(seats);
    if (finish === null) {
      taps[set.set] = seats;
      render();
      return;
    }
    taps[set.set] = [];
    if (typeof editing[set.set] === "number") { delete editing[set.set]; }
    enter(set.set, {board: board, finish: finish});
  }

  function action(setNo, path, body, done) {
    G.request("POST", api + "/sets/" + setNo + "/" + path, headers(), body).then(function (answer) {
      reachable = true;
      if (answer.status === 401 || answer.status === 403) { linkDead = true; }
      else if (answer.status === 200 || answer.status === 201) { done(); }
      else {
        asksTiebreak(setNo, answer.body);
        notify(setNo, "refused", fmt(L.refused, {what: "", why: G.refusal(answer.status, answer.body)}));
      }
      load();
    }, function () {
      reachable = false;
      notify(setNo, "refused", L.no_connection_retry);
      render();
    });
  }

  function verify(set) {
    action(set.set, "verify", {}, function () { notify(set.set, "ok", L.verified_now); });
  }

  function dispute(set) {
    var note = disputing[set.set] || "";
    delete disputing[set.set];
    action(set.set, "dispute", {note: note}, function () { notify(set.set, "ok", L.director_called); });
  }

  // ---- drawing ----

  function seatButton(set, board, seat) {
    var tapped = taps[set.set] || [];
    var place = tapped.indexOf(seat);
    var who = playing(set, seat);
    return el("button", {
      type: "button", class: "seat-button seat-" + seat.toLowerCase() + (place >= 0 ? " tapped" : ""),
      dataset: {seat: seat}, disabled: place >= 0,
      onclick: function () { tap(set, board, seat); }
    }, el("span", {class: "seat-letter"}, L[seat]),
       el("span", {class: "seat-player"}, who.name || who.player || ""),
       place >= 0 ? el("span", {class: "seat-place"}, String(place + 1)) : null);
  }

  function keypad(set, board) {
    var tapped = taps[set.set] || [];
    return el("div", {class: "keypad", dataset: {board: String(board)}},
      el("p", {class: "keypad-title"}, fmt(L.tap_board, {n: board})),
      el("div", {class: "compass"}, SEATS.map(function (seat) { return seatButton(set, board, seat); })),
      el("p", {class: "keypad-help"}, tapped.length ? finishText(tapped.join("")) : L.tap_help),
      el("div", {class: "keypad-actions"},
        tapped.length ? el("button", {type: "button", class: "secondary clear",
          onclick: function () { taps[set.set] = []; render(); }}, L.clear) : null,
        typeof editing[set.set] === "number" ? el("button", {type: "button", class: "secondary",
          onclick: function () { delete editing[set.set]; taps[set.set] = []; render(); }}, L.cancel) : null));
  }

  function boardRow(set, board, entry, open) {
    var change = open && entry && !entry.pending ? el("button", {
      type: "button", class: "secondary change",
      onclick: function () { editing[set.set] = board; taps[set.set] = []; render(); }
    }, L.change) : null;
    return el("li", {class: "board-row" + (entry && entry.pending ? " pending" : ""),
                     dataset: {board: String(board)}},
      el("span", {class: "board-no"}, fmt(L.board_n, {n: board})),
      el("span", {class: "finish"}, entry ? finishText(entry.finish) : "—"),
      el("span", {class: "after"}, entry ? (entry.pending ? L.waiting_to_send_one : afterText(entry)) : ""),
      change);
  }

  function levelSelect(name, chosen) {
    return el("select", {name: name, class: "level-select"}, LEVELS.map(function (level) {
      return el("option", {value: level, selected: level === chosen}, level);
    }));
  }

  function finalLevels(set) {
    var now = set.levels || set.start;
    var ns = levelSelect("ns_level", now.ns), ew = levelSelect("ew_level", now.ew);
    return el("details", {class: "final-levels"},
      el("summary", {}, L.enter_final_levels),
      el("div", {class: "level-form"},
        el("label", {}, L.ns, " ", ns), el("label", {}, L.ew, " ", ew),
        el("button", {type: "button", class: "enter-levels", onclick: function () {
          enter(set.set, {ns_level: ns.value, ew_level: ew.value});
        }}, L.enter_levels)));
  }

  // A knockout match level after its set is decided by extra boards (art. 49.2): North-South
  // enter the side that won them; the server says when they are needed (verify's answer).
  function tiebreakBlock(set) {
    var pending = pendingOf(set.set).filter(function (e) { return e.tiebreak !== undefined; });
    var chosen = pending.length ? pending[pending.length - 1].tiebreak : set.tiebreak;
    return el("div", {class: "tiebreak-block"},
      el("p", {}, L.tiebreak_help),
      el("div", {class: "keypad-actions"}, ["NS", "EW"].map(function (side) {
        return el("button", {type: "button", class: "tiebreak" + (chosen === side ? "" : " secondary"),
          dataset: {side: side}, onclick: function () { enter(set.set, {tiebreak: side}); }},
          fmt(L.tiebreak_won, {side: side === "NS" ? L.ns : L.ew}));
      })),
      chosen ? el("p", {class: "muted"}, fmt(L.tiebreak_now, {side: chosen === "NS" ? L.ns : L.ew})) : null);
  }

  function disputeBlock(set) {
    if (set.set in disputing) {
      var note = el("textarea", {rows: "2", maxlength: "500", placeholder: L.dispute_note,
        oninput: function () { disputing[set.set] = note.value; }});
      note.value = disputing[set.set];
      return el("div", {class: "dispute-form"}, note,
        el("button", {type: "button", class: "danger send-dispute",
                      onclick: function () { dispute(set); }}, L.call_director),
        el("button", {type: "button", class: "secondary",
                      onclick: function () { delete disputing[set.set]; render(); }}, L.cancel));
    }
    return el("button", {type: "button", class: "secondary dispute",
      onclick: function () { disputing[set.set] = ""; render(); }}, L.call_director);
  }

  function setCard(set, active) {
    var open = set.state !== "verified";
    var entries = boardEntries(set);
    var pending = pendingOf(set.set).length;
    var board = open && (active || editing[set.set]) ? nextBoard(set) : null;
    var whole = setLevelEntry(set);
    var late = set.start.ns !== "2" || set.start.ew !== "2";
    var levels = set.levels || set.start;
    var canVerify = open && set.state !== "missing" && set.complete && !pending;
    return el("section", {class: "set-card state-" + set.state, id: "set-" + set.set,
                          dataset: {set: String(set.set)}},
      el("h2", {}, fmt(L.set_n, {n: set.set}), " ",
         el("span", {class: "state-badge state-" + set.state}, stateText(set.state))),
      el("p", {class: "set-facts"},
        fmt(L.boards_range, {first: set.boards[0], last: set.boards[set.boards.length - 1]}), " · ",
        el("span", {class: "start"}, fmt(L.start_levels, {ns: set.start.ns, ew: set.start.ew})),
        late ? el("span", {class: "late"}, " " + L.late_start) : null),
      el("ol", {class: "boards"}, set.boards.map(function (b) {
        return entries[b] || board === b || !whole ? boardRow(set, b, entries[b], open) : null;
      })),
      whole ? el("p", {class: "whole-set" + (whole.pending ? " pending" : "")},
        fmt(L.final_levels_entered, {levels: levelsText(whole.ns_level, whole.ew_level)}),
        whole.pending ? " (" + L.waiting_to_send_one + ")" : "") : null,
      board !== null ? keypad(set, board) : null,
      open && !active && board === null && !set.complete ? el("button", {type: "button",
        class: "secondary open-set", onclick: function () { editing[set.set] = true; render(); }},
        L.enter_this_set) : null,
      el("p", {class: "levels-now"}, el("strong", {}, set.complete ? L.set_result : L.levels_now),
        " ", levelsText(levels.ns, levels.ew)),
      open ? finalLevels(set) : null,
      open && needsTiebreak(set) ? tiebreakBlock(set) : null,
      open ? (set.problems || []).map(function (p) {
        return el("p", {class: "notice problem"}, p.message || String(p));
      }) : null,
      canVerify ? el("div", {class: "verify-block"}, el("p", {}, L.verify_help),
        el("button", {type: "button", class: "verify", onclick: function () { verify(set); }},
           L.verify)) : null,
      open && set.complete && pending ? el("p", {class: "muted"}, L.verify_after_sending) : null,
      !open && set.tiebreak ? el("p", {class: "tiebreak-now"},
        fmt(L.tiebreak_now, {side: set.tiebreak === "NS" ? L.ns : L.ew})) : null,
      !open ? el("p", {class: "verified-note"}, L.verified_note) : null,
      set.state === "disputed" ? el("p", {class: "disputed-note"}, L.director_called,
        set.note ? el("span", {class: "muted"}, " (" + set.note + ")") : null) : null,
      (notices[set.set] || []).map(function (n) {
        return el("p", {class: "notice " + n.kind, role: n.kind === "refused" ? "alert" : "status"}, n.text);
      }),
      el("div", {class: "dispute-block"}, disputeBlock(set)));
  }

  function seating() {
    return el("dl", {class: "seating"}, SEATS.map(function (seat) {
      var who = playing(view.sets[0], seat);
      return [el("dt", {}, L[seat]),
              el("dd", {}, who.name || "", who.player ? el("span", {class: "pid"}, " " + who.player) : null,
                 who.for ? el("span", {class: "muted"}, " " + fmt(L.substitute_for, {name: who.for.name || who.for.player})) : null)];
    }));
  }

  // A team match's room: which match, which room, and which team sits North-South.
  function matchLine() {
    var m = view.match;
    if (!m) { return null; }
    var ns = m.ns_team === m.home.team ? m.home.name : m.away.name;
    return el("p", {class: "match-line"}, fmt(L.match_line, {
      match: m.match, room: L["room_" + m.room] || m.room, home: m.home.name, away: m.away.name, ns: ns}));
  }

  function recap() {
    var all = view.sets.every(function (s) { return s.state === "verified"; });
    return el("section", {id: "recap", class: all ? "recap done" : "recap"},
      el("h2", {}, L.recap_title),
      el("p", {}, all ? L.recap_all_verified : L.recap_help),
      el("div", {class: "scroll"}, el("table", {class: "data", id: "recap-table"},
        el("thead", {}, el("tr", {}, el("th", {}, L.set), el("th", {}, L.boards_played),
          el("th", {class: "num"}, L.ns), el("th", {class: "num"}, L.ew), el("th", {}, L.state))),
        el("tbody", {}, view.sets.map(function (set) {
          var played = Object.keys(boardEntries(set)).length;
          var levels = set.levels || set.start;
          var known = set.state !== "missing";
          return el("tr", {dataset: {set: String(set.set)}}, el("td", {}, String(set.set)),
            el("td", {class: "num"}, played ? String(played) : "—"),
            el("td", {class: "num"}, known ? levels.ns : "—"),
            el("td", {class: "num"}, known ? levels.ew : "—"),
            el("td", {}, stateText(set.state)));
        })))),
      el("p", {class: "muted"}, L.recap_correction));
  }

  function statusBar() {
    var waiting = outbox.items().length;
    if (linkDead) { return el("p", {class: "status-bar dead", role: "alert"}, L.link_dead); }
    if (waiting) {
      return el("p", {class: "status-bar waiting", role: "status"},
        fmt(L.waiting_to_send, {n: waiting}),
        outbox.state === "offline" || !reachable ? " · " + L.no_connection : "");
    }
    if (!reachable) { return el("p", {class: "status-bar offline", role: "status"}, L.no_connection); }
    return el("p", {class: "status-bar sent", role: "status"}, L.all_sent);
  }

  function render() {
    var active = null;
    view.sets.forEach(function (set) {
      if (active === null && set.state !== "verified" && !set.complete) { active = set.set; }
    });
    var focused = document.activeElement && document.activeElement.tagName === "TEXTAREA";
    if (focused) { return; }  // redraw after the note is sent, not under the writer's fingers
    G.fill(app,
      statusBar(),
      el("h1", {}, fmt(L.table_title, {round: view.round, table: view.table}),
        view.group ? el("span", {class: "muted"}, " · " + fmt(L.group_n, {n: view.group})) : null),
      matchLine(),
      view.final ? el("p", {class: "notice"}, L.round_final) : null,
      seating(),
      el("p", {class: "muted who-enters"}, L.who_enters),
      view.sets.map(function (set) { return setCard(set, set.set === active); }),
      recap());
  }

  var lastView = JSON.stringify(view);

  function load() {
    return G.request("GET", api, headers()).then(function (answer) {
      reachable = true;
      if (answer.status === 401 || answer.status === 403) { linkDead = true; render(); return; }
      if (answer.status !== 200) { return; }
      var text = JSON.stringify(answer.body);
      if (text !== lastView) { view = answer.body; lastView = text; }
      render();
    }, function () { reachable = false; render(); });
  }

  render();
  outbox.kick(true);
  // The director may correct or verify from the console: look again now and then.
  window.setInterval(function () { load(); outbox.kick(false); }, POLL);
});
