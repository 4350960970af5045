#!/usr/bin/env bash
# Deliver one mail through a real Postfix to an installed judge, by the
# pipe transport README's "Wiring Postfix" gives (user=zinejudge, argv=
# ZINEJUDGE deliver --config /etc/zinejudge/zinejudge.toml), and wait until
# Postfix says the pipe took it.
#
# usage: scripts/test-postfix-pipe.sh BASE_DIR PORT FROM_ADDRESS ZINEJUDGE   (as root)
#
# The Postfix instance is private: its own configuration, queue and log
# under BASE_DIR, an SMTP listener on 127.0.0.1:PORT only, mail for
# judge@example.test piped to the judge, and nothing ever relayed
# elsewhere. It is stopped again before this script exits.
set -euo pipefail

B=$(realpath -m "${1:?usage: test-postfix-pipe.sh BASE_DIR PORT FROM ZINEJUDGE}")
PORT=${2:?port}
FROM=${3:?from address}
ZJ=${4:?path of the installed zinejudge}
export PATH="$PATH:/usr/sbin:/sbin"
command -v postfix >/dev/null || { echo "test-postfix-pipe: postfix is not installed" >&2; exit 1; }

rm -rf "$B"
mkdir -p "$B"/{etc,spool,data}
chmod 755 "$B"
chown postfix "$B/data"

cat > "$B/etc/main.cf" <<EOF
# written by zinejudge scripts/test-postfix-pipe.sh
compatibility_level = 3.6
queue_directory = $B/spool
data_directory = $B/data
mail_owner = postfix
setgid_group = postdrop
maillog_file_prefixes = $B
maillog_file = $B/postfix.log
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mail.example.test
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
# The judge's domain, and its address routed to the pipe (README):
relay_domains = example.test
transport_maps = inline:{ judge@example.test=zinejudge: }
zinejudge_destination_recipient_limit = 1
# Nothing else leaves this instance.
default_transport = error:test-postfix-pipe: outbound mail is disabled
relay_transport = error:test-postfix-pipe: outbound mail is disabled
smtp_dns_support_level = disabled
smtpd_error_sleep_time = 0s
in_flow_delay = 0s
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 5s
EOF
{
  echo "127.0.0.1:$PORT inet n - n - - smtpd"
  for s in "pickup unix n - n 60 1 pickup" "cleanup unix n - n - 0 cleanup" "qmgr unix n - n 1 1 qmgr" \
    "rewrite unix - - n - - trivial-rewrite" "bounce unix - - n - 0 bounce" "defer unix - - n - 0 bounce" \
    "trace unix - - n - 0 bounce" "verify unix - - n - 1 verify" "flush unix n - n 1000? 0 flush" \
    "proxymap unix - - n - - proxymap" "showq unix n - n - - showq" "error unix - - n - - error" \
    "retry unix - - n - - error" "discard unix - - n - - discard" "anvil unix - - n - 1 anvil" \
    "scache unix - - n - 1 scache" "postlog unix-dgram n - n - 1 postlogd"; do
    echo "$s"
  done
  # The transport, as README's "Wiring Postfix" writes it (but for the path
  # of the judge under test).
  echo "zinejudge unix  -       n       n       -       -       pipe"
  echo "  flags=DR user=zinejudge argv=$ZJ deliver --config /etc/zinejudge/zinejudge.toml"
} > "$B/etc/master.cf"
touch -d '-1 minute' "$B/etc/main.cf" "$B/etc/master.cf"
postfix -c "$B/etc" check
postfix -c "$B/etc" start >"$B/postfix.stdout" 2>&1 || { cat "$B/postfix.stdout" >&2; exit 1; }
stop() { postfix -c "$B/etc" stop >/dev/null 2>&1 || true; }
trap stop EXIT

# ---- one SMTP conversation (bash's /dev/tcp; no client needed)
reply() { # read a whole reply; fail unless its code starts with $1
  local line
  while IFS= read -r -t 10 line <&3; do
    line=${line%$'\r'}
    case $line in ???-*) continue ;; "$1"*) return 0 ;; *) echo "test-postfix-pipe: server said: $line" >&2; return 1 ;; esac
  done
  echo "test-postfix-pipe: no reply from the server" >&2
  return 1
}
say() { printf '%s\r\n' "$1" >&3; }
for _ in $(seq 1 100); do
  exec 3<>"/dev/tcp/127.0.0.1/$PORT" 2>/dev/null && break
  sleep 0.1
done
reply 220
say "EHLO client.example.test"; reply 250
say "MAIL FROM:<$FROM>"; reply 250
say "RCPT TO:<judge@example.test>"; reply 250
say "DATA"; reply 354
say "From: $FROM"
say "To: judge@example.test"
say "Subject: help through postfix"
say "Message-ID: <postfix-pipe-$$-$(date +%s)@example.test>"
say ""
say "HELP"
say "."; reply 250
say "QUIT"; reply 221
exec 3<&- 3>&-

# ---- wait until the pipe has run and succeeded
for _ in $(seq 1 600); do
  if grep -q 'status=sent (delivered via zinejudge service)' "$B/postfix.log" 2>/dev/null; then
    echo "test-postfix-pipe: Postfix piped the mail to zinejudge deliver as user zinejudge"
    exit 0
  fi
  if grep -Eq 'relay=zinejudge.*status=(deferred|bounced)' "$B/postfix.log" 2>/dev/null; then
    break
  fi
  sleep 0.1
done
echo "test-postfix-pipe: the pipe did not deliver; Postfix's log:" >&2
cat "$B/postfix.log" >&2 || true
exit 1
