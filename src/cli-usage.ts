import { VERSION } from './version.ts'

// What `votelist help` prints, and an unknown command after its error.
export const USAGE = `votelist ${VERSION} — a self-hosted Minecraft server list with vote rewards

Usage:
  votelist [serve] [--config FILE]          run the site (the default command)
  votelist migrate [--config FILE]          apply database migrations and exit
  votelist user add --email E --password P [--admin]
                                            create an account ("-" as P reads it from stdin)
  votelist server add --owner E --name N --host H [--port P] [--edition java|bedrock] [--slug S]
                                            list a server for an account; prints it as JSON
  votelist key create --server SLUG [--name N]
                                            create an API key; prints the key alone
  votelist backup FILE [--config FILE]      write a consistent copy of the SQLite database to FILE
                                            (PostgreSQL: use pg_dump)
  votelist db copy --to URL [--config FILE] copy the site's SQLite data into the empty PostgreSQL
                                            database at URL (postgres://…), checking every count
                                            ("-" as URL reads it from stdin)
  votelist config check [--config FILE]     validate the configuration and exit
  votelist config example [--database PATH] print a commented votelist.toml with every default
  votelist health [--config FILE]           ask the site on the configured http.host/http.port for
                                            /api/v1/health; prints the version that answers
  votelist version                          print the version
  votelist help                             print this text

Every command takes --config FILE, after the command or before it (default ./votelist.toml if
present, else built-in defaults).
Exit codes: 0 success, 1 failure (refused or failed), 2 bad usage or bad argument value,
74 disk full or I/O error on the database, 77 database or data folder not writable,
78 bad configuration, 129/130/143 backup stopped by SIGHUP/SIGINT/SIGTERM (nothing left).`
