-- PostgreSQL twin of migrations/0020_captcha.sql.
CREATE TABLE captcha_use (
  id         text PRIMARY KEY,
  expires_at bigint NOT NULL
);
CREATE INDEX captcha_use_expiry ON captcha_use(expires_at);
