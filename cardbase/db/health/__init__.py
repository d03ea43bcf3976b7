"""A database's health on either engine: damage told before a write makes it worse
(`damage`), and the doctor, which says what is wrong without changing anything (`--fix`
aside).

The doctor runs the same checks, in the same order, as `Finding`s (`findings`) on both
engines: a SQLite file is read as it is (`sqlite`), a PostgreSQL database as far as cardbase
can judge what the server keeps (`postgres`).
"""
