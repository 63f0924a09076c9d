CREATE TABLE IF NOT EXISTS accepted_emails (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    idempotency_key TEXT,
    recipient       TEXT NOT NULL,
    subject         TEXT NOT NULL,
    accepted_at     TEXT NOT NULL
);
