"""The server of the day of the event (issue 22, ``guandan-dup serve DIR``): the tables'
phones enter each board or set and verify it, the director watches and corrects from the
console, a projector shows the board. Arrows point down (house rule 17): a route
(``api``, ``stream``, the pages) parses the request, finds the caller (``callers``,
``tokens``) and calls one method of ``desk.Desk``, the live state of every round; an
entry is checked in pure Python (``entries``), made durable in the journal before it is
answered (``journal``: SQLite, one writer, group commit, replayed on start) and, once
verified, stored in rounds/R/results.parquet through ``event ingest``'s own path
(``store``). ``board`` computes the public standings, ``server`` runs uvicorn, ``app``
puts the routes together.
"""
