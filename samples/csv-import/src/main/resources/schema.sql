CREATE TABLE IF NOT EXISTS users (
    external_id       TEXT PRIMARY KEY,
    name              TEXT NOT NULL,
    email             TEXT NOT NULL,
    idempotency_key   TEXT NOT NULL,
    created_at        TEXT NOT NULL,
    repeated_requests INTEGER NOT NULL DEFAULT 0
);
