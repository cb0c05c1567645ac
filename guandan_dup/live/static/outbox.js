// guandan-dup live: the table page's outbox. Every entry is written to localStorage before it
// is sent and stays there until the server answers it, so a phone that loses the Wi-Fi, is
// locked or reloaded loses nothing; it is resent with the same client id, which the server
// answers 200 with the same answer, so nothing is ever counted twice.
//
// What each answer does to an entry:
//   200, 201                      acknowledged: removed.
//   409, 422, any other 4xx       refused by the rules or the state (a verified set): removed
//                                 and shown in words; sending it again could never succeed.
//   401, 403                      the table's link was revoked or is another table's: kept,
//                                 and sending pauses (the new link of the same table, opened
//                                 on this phone, sends them: the outbox is the table's).
//   no answer, 5xx, 408, 429      the network or the server: kept, retried with backoff
//                                 (1 s doubling to 30 s, jittered so sixty phones coming back
//                                 together do not arrive in step), at once when the phone
//                                 says it is online again or the page is shown again.
// Entries go in the order they were made, one at a time: a board's levels follow from the
// boards before it.
(function () {
  "use strict";

  var MAX_DELAY = 30000;

  function retried(status) {
    return status >= 500 || status === 408 || status === 429;
  }

  // storageKey: where the entries live; headers(): the request headers (the Bearer token);
  // onAnswer(item, status, body): called once per acknowledged or refused entry;
  // onChange(): after every change of the queue or of its state (to redraw the page).
  function Outbox(storageKey, headers, onAnswer, onChange) {
    this.key = storageKey;
    this.headers = headers;
    this.onAnswer = onAnswer;
    this.onChange = onChange;
    this.sending = false;
    this.failures = 0;
    this.timer = null;
    this.state = "idle";   // idle | sending | offline | unauthorised
    var self = this;
    window.addEventListener("online", function () { self.kick(true); });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { self.kick(true); }
    });
    window.addEventListener("storage", function (event) {
      if (event.key === self.key) { self.onChange(); self.kick(false); }
    });
  }

  Outbox.prototype.items = function () {
    try {
      var items = JSON.parse(window.localStorage.getItem(this.key) || "[]");
      return Array.isArray(items) ? items : [];
    } catch (error) {
      return [];
    }
  };

  Outbox.prototype.save = function (items) {
    window.localStorage.setItem(this.key, JSON.stringify(items));
  };

  // Queue one request (stored before anything is sent) and start sending.
  Outbox.prototype.add = function (url, body) {
    var items = this.items();
    items.push({url: url, body: body, queued: Date.now()});
    this.save(items);
    this.onChange();
    this.kick(true);
  };

  // Drop the entry with this client id (it was answered), wherever it is in the queue.
  Outbox.prototype.remove = function (id) {
    this.save(this.items().filter(function (item) { return item.body.id !== id; }));
  };

  Outbox.prototype.kick = function (now) {
    if (now) {
      this.failures = 0;
      if (this.timer !== null) { window.clearTimeout(this.timer); this.timer = null; }
    }
    if (!this.sending && this.timer === null) { this.send(); }
  };

  Outbox.prototype.retryLater = function (state) {
    var self = this;
    this.failures += 1;
    var delay = Math.min(MAX_DELAY, 1000 * Math.pow(2, this.failures - 1));
    delay = delay / 2 + Math.random() * delay / 2;
    this.state = state;
    this.timer = window.setTimeout(function () { self.timer = null; self.send(); }, delay);
    this.onChange();
  };

  Outbox.prototype.send = function () {
    var self = this;
    var items = this.items();
    if (!items.length) {
      this.sending = false;
      if (this.state !== "idle") { this.state = "idle"; this.onChange(); }
      return;
    }
    var item = items[0];
    this.sending = true;
    this.state = "sending";
    window.GuandanLive.request("POST", item.url, this.headers(), item.body).then(function (answer) {
      self.sending = false;
      if (answer.status === 401 || answer.status === 403) {
        self.state = "unauthorised";
        self.onChange();
        return;
      }
      if (retried(answer.status)) {
        self.retryLater("offline");
        return;
      }
      self.failures = 0;
      self.remove(item.body.id);
      self.onAnswer(item, answer.status, answer.body);
      self.onChange();
      self.send();
    }, function () {
      self.sending = false;
      self.retryLater("offline");
    });
  };

  window.GuandanLive.Outbox = Outbox;
})();
