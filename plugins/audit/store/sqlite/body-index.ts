// Whether the bodies' word index (audit_bodies) is kept, and bringing it in line when the setting
// changed since the last open: switched on, every stored entry is indexed then (one statement,
// at open); switched off, the index is emptied. Off, a body search (q) scans every body in the
// time range with LIKE; on, each entry's insert costs several times a row without it.
import type { Database } from 'better-sqlite3';

/** Applies `on` to the database, in one transaction that re-reads the setting (two workers open it). */
export function applyBodyIndexSetting(db: Database, on: boolean): void {
  const setting = db.prepare("SELECT value FROM store_settings WHERE name = 'body_index'").pluck();
  db.transaction(() => {
    if ((setting.get() === 1) === on) return;
    if (on) db.exec('INSERT INTO audit_bodies (rowid, request_body, response_body) SELECT seq, request_body, response_body FROM audit_entries WHERE request_body IS NOT NULL OR response_body IS NOT NULL');
    else db.exec("INSERT INTO audit_bodies (audit_bodies) VALUES ('delete-all')");
    db.prepare("INSERT INTO store_settings (name, value) VALUES ('body_index', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value").run(on ? 1 : 0);
  }).immediate();
}
