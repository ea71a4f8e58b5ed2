"""Schema migrations: ``sql/schema/NNN_name.sql``, whose number is the schema version.

Opening a store applies the missing ones in order inside one transaction, so an old store file is
migrated rather than broken, and a store written by a newer toolex is refused with a clear
message.
"""

from __future__ import annotations

import re

from toolex.errors import StoreError
from toolex.resources import sql_files
from toolex.store.connection import Connection
from toolex.store.duck import duckdb

_VERSION_RE = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


def schema_migrations() -> list[tuple[int, str]]:
    """(version, file name) of every shipped schema file, ascending."""
    out = []
    for path in sql_files("schema"):
        match = _VERSION_RE.match(path.name)
        if not match:
            raise StoreError(f"schema file {path.name!r} is not named NNN_name.sql")
        out.append((int(match.group(1)), path.name))
    versions = [v for v, _ in out]
    if len(set(versions)) != len(versions):
        raise StoreError(f"two schema files share a version number: {sorted(versions)}")
    return out


class Migrations(Connection):
    """A store's schema version, and bringing it up to this toolex's."""

    @property
    def schema_version(self) -> int:
        try:
            return self.count("store/01_schema_version.sql")
        except duckdb.CatalogException:
            return 0

    def migrate(self, current: int | None = None) -> bool:
        """Apply the schema files newer than the store's version (``current`` when the caller
        has read it already: Store.open reads it with the commit count, in one query); whether
        any was applied."""
        migrations = schema_migrations()
        latest = migrations[-1][0] if migrations else 0
        if current is None:
            current = self.schema_version
        if current > latest:
            raise StoreError(
                f"the store {self.path} has schema version {current}, newer than this toolex "
                f"knows ({latest}); upgrade toolex"
            )
        pending = [(v, name) for v, name in migrations if v > current]
        if not pending:
            return False
        if self.read_only:
            raise StoreError(
                f"the store {self.path} has schema version {current}; open it once for writing "
                f"(any `toolex` write command) to migrate it to {latest}"
            )
        with self.transaction():
            self.execute_script("store/02_create_schema_version.sql")
            for _, name in pending:
                self.execute_script(f"schema/{name}")
            self.execute(
                "store/03_record_migrations.sql",
                {"versions": [v for v, _ in pending], "names": [n for _, n in pending]},
            )
        return True
