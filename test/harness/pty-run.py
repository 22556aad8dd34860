# Runs a command on a pseudo-terminal, as an admin typing at a shell would: waits for PROMPT in
# its output, types INPUT (a line), then waits for the command to end, without ever sending
# end-of-file. Prints {"code", "output"} as JSON. Used by test/cli/password-prompt.test.ts.
# Usage: pty-run.py PROMPT INPUT COMMAND...
import json, os, pty, sys

prompt, line, cmd = sys.argv[1].encode(), sys.argv[2].encode(), sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
out = b''
sent = False
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:  # EIO: the command ended and closed the terminal
        break
    if not chunk:
        break
    out += chunk
    if not sent and prompt in out:
        os.write(fd, line)
        sent = True
_, status = os.waitpid(pid, 0)
print(json.dumps({'code': os.waitstatus_to_exitcode(status), 'output': out.decode('utf-8', 'replace')}))
