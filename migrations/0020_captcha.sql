-- Captcha solutions already accepted, so that each one counts once. id is the challenge's signed
-- nonce; a row is useless (and purged) once its challenge has expired, as an expired challenge is
-- refused anyway.
CREATE TABLE captcha_use (
  id         TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX captcha_use_expiry ON captcha_use(expires_at);
