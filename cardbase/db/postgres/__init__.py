"""PostgreSQL as cardbase's shared engine, for a league, shop or trading community.

The library speaks to its database through a DB-API connection's small interface
(`cardbase.db.engine.Connection`: `execute`, `executemany`, `cursor`, `row_factory`, `?`
parameters, the DB-API's exceptions). `connection.PgConnection` offers it over psycopg 3,
so the statements the library writes run on both engines; where the engines differ (full
text, regular expressions, text positions, locks, snapshots, bulk fills), the statement asks
the connection's engine, `PostgresEngine`.

Loaded only when a `postgresql://` URL is opened: the SQLite path never imports psycopg.
"""
