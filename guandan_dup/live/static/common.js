// guandan-dup live pages: what the table's page, the console and the board share: the page's
// labels (one language, chosen by the server from the "lang" cookie), the language toggle,
// a DOM builder, ids for entries, the words for an API refusal and the start of each
// page's script.
// No libraries and nothing from the network but our own server: the venue has no internet.
(function () {
  "use strict";

  var labels = JSON.parse(document.getElementById("labels").textContent);

  // "第 {n} 局" + {n: 3} -> "第 3 局"
  function fmt(text, params) {
    return String(text).replace(/\{(\w+)\}/g, function (whole, name) {
      return params && params[name] !== undefined ? String(params[name]) : whole;
    });
  }

  // el("p", {class: "x", onclick: fn}, "text", child, ...): children may be strings, nodes,
  // arrays of them, or null (skipped), so a template reads as one expression.
  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) { return; }
      if (name.slice(0, 2) === "on") { node.addEventListener(name.slice(2), value); }
      else if (name === "dataset") { Object.assign(node.dataset, value); }
      else { node.setAttribute(name, value === true ? "" : value); }
    });
    function add(child) {
      if (child === null || child === undefined || child === false) { return; }
      if (Array.isArray(child)) { child.forEach(add); return; }
      node.appendChild(typeof child === "object" ? child : document.createTextNode(child));
    }
    Array.prototype.slice.call(arguments, 2).forEach(add);
    return node;
  }

  // Replace a node's children: the same children as el() takes (arrays, nulls skipped).
  function fill(node) {
    var holder = el.apply(null, ["div", {}].concat(Array.prototype.slice.call(arguments, 1)));
    node.replaceChildren.apply(node, Array.prototype.slice.call(holder.childNodes));
    return node;
  }

  // A random RFC 4122 version-4 id. crypto.randomUUID exists only in a secure context
  // (https or localhost) and a phone on the venue's Wi-Fi opens http://192.168.x.y, so the
  // fallback builds the same from crypto.getRandomValues, which every context has.
  function uuid() {
    if (window.crypto && typeof window.crypto.randomUUID === "function" && window.isSecureContext) {
      return window.crypto.randomUUID();
    }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); });
    return [hex.slice(0, 4), hex.slice(4, 6), hex.slice(6, 8), hex.slice(8, 10), hex.slice(10)]
      .map(function (part) { return part.join(""); }).join("-");
  }

  // The words of an API refusal: a 422's problems one per line, else its message.
  function refusal(status, body) {
    body = body || {};
    if (Array.isArray(body.problems) && body.problems.length) {
      return body.problems.map(function (p) { return p.message || String(p); }).join("\n");
    }
    var text = body.message || body.detail || body.error;
    return text ? String(text) : fmt(labels.http_error, {status: status});
  }

  // POST or GET JSON; resolves to {status, body} (body {} when not JSON), rejects only when
  // the server could not be reached.
  function request(method, url, headers, body) {
    var options = {method: method, headers: Object.assign({"Accept": "application/json"}, headers),
                   credentials: "same-origin", cache: "no-store"};
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(url, options).then(function (response) {
      return response.text().then(function (text) {
        var parsed = {};
        try { parsed = text ? JSON.parse(text) : {}; } catch (error) { parsed = {}; }
        return {status: response.status, body: parsed};
      });
    });
  }

  // The language toggle: the server renders the language of the "lang" cookie (Chinese
  // without one), so switching is a cookie for a year and a reload.
  Array.prototype.forEach.call(document.querySelectorAll("button.lang-toggle"), function (button) {
    button.addEventListener("click", function () {
      document.cookie = "lang=" + button.getAttribute("data-lang") +
        "; path=/; max-age=31536000; SameSite=Lax";
      location.reload();
    });
  });

  // A page's script: page(function (G, L, el, fmt) { ... }) runs the body at once with
  // what this file shares (G), the labels and the two helpers every drawing uses.
  function page(body) { body(window.GuandanLive, labels, el, fmt); }

  window.GuandanLive = {labels: labels, fmt: fmt, el: el, fill: fill, uuid: uuid,
                        refusal: refusal, request: request, page: page};
})();
