"""PostgreSQL as cardbase's shared engine, for a league, shop or trading community.

The library speaks to its database through the `sqlite3` connection's small interface
(`execute`, `executemany`, `cursor`, `row_factory`, `?` parameters, sqlite3's exceptions).
`connection.PgConnection` offers that interface over psycopg 3, so the statements the
library writes run on both engines; where the engines differ (full text, regular
expressions, locks, the schema's header), the library asks `dialect_of(conn)`.

Loaded only when a `postgresql://` URL is opened: the SQLite path never imports psycopg.
"""
