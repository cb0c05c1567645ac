// guandan-dup results site: click a column header to sort (score columns best first); type
// in a search box to filter the rows or cards of the element it names; on the index, type a
// name or id to find a player (a pair, a team) among everyone; on a phone, the bracket opens
// at the round being played.
// No network access and no libraries: the site must work offline and from file://.
(function () {
  "use strict";

  function key(row, index) {
    var cell = row.cells[index];
    return cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent.trim();
  }

  function compare(type, a, b) {
    if (type === "number") { return Number(a) - Number(b); }
    return a.localeCompare(b);
  }

  function sortBy(table, header, index) {
    var current = header.getAttribute("aria-sort");
    var descending = current === "ascending" ||
      (current !== "descending" && header.getAttribute("data-first") === "descending");
    var type = header.getAttribute("data-type");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (r1, r2) {
      var a = key(r1, index), b = key(r2, index);
      if (a === "" || b === "") { return (a === "") - (b === ""); }  // blanks last
      return descending ? compare(type, b, a) : compare(type, a, b);
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(header.parentNode.cells, function (th) {
      th.setAttribute("aria-sort", "none");
    });
    header.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (header, index) {
      header.tabIndex = 0;
      if (!header.hasAttribute("aria-sort")) { header.setAttribute("aria-sort", "none"); }
      header.addEventListener("click", function () { sortBy(table, header, index); });
      header.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          sortBy(table, header, index);
        }
      });
    });
  });

  Array.prototype.forEach.call(document.querySelectorAll("input[data-filter]"), function (input) {
    var scope = document.getElementById(input.getAttribute("data-filter"));
    input.addEventListener("input", function () {
      var query = input.value.trim().toLowerCase();
      Array.prototype.forEach.call(scope.querySelectorAll("[data-search]"), function (item) {
        item.hidden = query !== "" && item.getAttribute("data-search").indexOf(query) < 0;
      });
    });
  });

  // The index's search: the entries are written into the page (no fetch: from file:// a page
  // may not read the site's other files). Enter opens the first one found.
  var entries = document.getElementById("search-index");
  var find = document.getElementById("find");
  var found = document.getElementById("found");
  if (entries && find && found) {
    var everyone = JSON.parse(entries.textContent);
    find.addEventListener("input", function () {
      var query = find.value.trim().toLowerCase();
      found.textContent = "";
      if (query === "") { return; }
      var hits = everyone.filter(function (e) { return e.t.indexOf(query) >= 0; }).slice(0, 20);
      if (hits.length === 0) {
        var none = document.createElement("li");
        none.className = "muted";
        none.textContent = found.getAttribute("data-none");
        found.appendChild(none);
      }
      hits.forEach(function (e) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        var id = document.createElement("span");
        link.href = e.h;
        link.textContent = e.n;
        id.className = "pid";
        id.textContent = " " + e.i;
        link.appendChild(id);
        item.appendChild(link);
        found.appendChild(item);
      });
    });
    find.addEventListener("keydown", function (event) {
      var first = found.querySelector("a");
      if (event.key === "Enter" && first) { window.location.href = first.href; }
    });
  }

  // The bracket on a phone (rounds stacked): open at the round being played, unless the
  // link asked for a place of its own (#round-2, #places).
  var bracket = document.getElementById("bracket");
  if (bracket && !window.location.hash && window.matchMedia("(max-width: 40rem)").matches) {
    var current = document.getElementById("round-" + bracket.getAttribute("data-current"));
    if (current) { current.scrollIntoView(); }
  }
})();
