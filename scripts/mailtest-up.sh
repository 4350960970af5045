#!/usr/bin/env bash
# Start a throw-away mail system on 127.0.0.1 only, for zinejudge's mail tests
# and for trying the daemon by hand:
#   dovecot  IMAP $P+143 (STARTTLS)  IMAPS $P+993  LMTP $P+24  SASL(auth) $P+12
#   postfix  SMTP $P+25 (no auth, loopback clients)  submission $P+587
#            (STARTTLS + AUTH required)  smtps $P+465 (implicit TLS + AUTH)
# Mail to any address at any domain is delivered to its own Maildir
# (BASE/dovecot/mail/<domain>/<localpart>/Maildir, lower-cased); nothing is
# ever relayed elsewhere. IMAP/SMTP login = the full address, password
# "pw-<localpart>" (lower-cased), plus judge@example.test / judgepw.
# TLS: BASE/tls/ca.pem is the CA; the servers' certificate is for
# localhost and 127.0.0.1 (connect to 127.0.0.1, verify the name "localhost").
#
# usage: mailtest-up.sh [--config-only] BASE_DIR [PORT_BASE=10000]   (as root)
#   --config-only  write certificates and configuration, start nothing: the
#                  Rust test harness (tests/support/mailsys.rs) uses this and
#                  starts the servers as its own child processes:
#                    dovecot -F -c BASE/dovecot/dovecot.conf
#                    $(postconf -h daemon_directory)/master -s -c BASE/postfix/etc
# MAILTEST_TAG (default mailtest-PORT_BASE) goes into both servers' greeting
# banners, so a client can tell that a port is served by this instance.
# Stop with mailtest-down.sh BASE_DIR.
set -euo pipefail

config_only=
if [ "${1:-}" = "--config-only" ]; then config_only=1; shift; fi
B=$(realpath -m "${1:?usage: mailtest-up.sh [--config-only] BASE_DIR [PORT_BASE]}")
P=${2:-10000}
case $P in '' | *[!0-9]*) echo "mailtest-up: PORT_BASE must be a number" >&2; exit 2 ;; esac
[ "$P" -ge 1024 ] && [ "$P" -le 64000 ] || { echo "mailtest-up: PORT_BASE must be in 1024..64000" >&2; exit 2; }
TAG=${MAILTEST_TAG:-mailtest-$P}
IMAP=$((P + 143)) IMAPS=$((P + 993)) LMTP=$((P + 24)) AUTH=$((P + 12))
SMTP=$((P + 25)) SUB=$((P + 587)) SMTPS=$((P + 465))
export PATH="$PATH:/usr/sbin:/sbin"

if ! command -v dovecot >/dev/null || ! command -v postfix >/dev/null || ! command -v openssl >/dev/null; then
  if [ -n "$config_only" ]; then
    echo "mailtest-up: dovecot/postfix/openssl missing; run scripts/install-test-deps.sh as root" >&2
    exit 1
  fi
  bash "$(dirname "$0")/install-test-deps.sh"
fi
[ "$(id -u)" -eq 0 ] || { echo "mailtest-up: must run as root (postfix's master needs it)" >&2; exit 1; }
case $(dovecot --version) in
  2.3.*) ;;
  *) echo "mailtest-up: dovecot $(dovecot --version) found; this configuration is for dovecot 2.3 (Debian 12)" >&2; exit 1 ;;
esac

mkdir -p "$B"/{tls,dovecot/{run,state,mail},postfix/{etc,spool,data}}
chmod 755 "$B"

# ---- TLS: a CA and a leaf for localhost/127.0.0.1 (rustls/webpki reject a
# CA certificate used as the server's own). EC keys: instant to make.
T=$B/tls
if [ ! -f "$T/server.pem" ]; then
  ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  openssl req -x509 "${ec[@]}" -keyout "$T/ca.key" -out "$T/ca.pem" -days 3650 -subj "/CN=zinejudge mailtest CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  openssl req "${ec[@]}" -keyout "$T/server.key" -out "$T/server.csr" -subj "/CN=localhost" 2>/dev/null
  printf '%s\n' 'basicConstraints=critical,CA:FALSE' 'keyUsage=critical,digitalSignature,keyEncipherment' \
    'extendedKeyUsage=serverAuth' 'subjectAltName=DNS:localhost,IP:127.0.0.1' > "$T/leaf.ext"
  openssl x509 -req -in "$T/server.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" -CAcreateserial \
    -out "$T/server.pem" -days 3650 -extfile "$T/leaf.ext" 2>/dev/null
  chmod 644 "$T/ca.pem" "$T/server.pem"
fi

# ---- dovecot
D=$B/dovecot
[ -f "$D/passwd" ] || printf 'judge@example.test:{PLAIN}judgepw\n' > "$D/passwd"
cat > "$D/dovecot.conf" <<EOF
# written by zinejudge scripts/mailtest-up.sh; dovecot 2.3
base_dir = $D/run
state_dir = $D/state
instance_name = $TAG
log_path = $D/dovecot.log
protocols = imap lmtp
listen = 127.0.0.1
login_greeting = $TAG ready.
ssl = yes
ssl_cert = <$T/server.pem
ssl_key = <$T/server.key
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_username_format = %Lu
auth_failure_delay = 0
login_trusted_networks = 127.0.0.0/8
mail_location = maildir:$D/mail/%d/%n/Maildir
mail_uid = 65534
mail_gid = 65534
first_valid_uid = 1
# IDLE is inotify-driven; this is only the fallback when inotify is unavailable
mailbox_idle_check_interval = 1 secs
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%Lu $D/passwd
}
passdb {
  driver = static
  args = password=pw-%n
}
userdb {
  driver = static
  args = uid=65534 gid=65534 home=$D/mail/%d/%n allow_all_users=yes
}
namespace inbox {
  inbox = yes
  separator = /
}
protocol imap {
  mail_max_userip_connections = 100
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP
  }
}
service auth {
  inet_listener sasl {
    address = 127.0.0.1
    port = $AUTH
  }
}
protocol lmtp {
  auth_username_format = %Lu
}
# No auth penalty: without this socket the auth process disables it. Else,
# after one bad password from 127.0.0.1, each SMTP AUTH waits seconds (the
# penalty is by IP, and postfix's SASL requests are not "trusted" logins).
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
EOF
chown 65534:65534 "$D/mail"

# ---- postfix (own main.cf and master.cf; no chroot; logs to a file)
F=$B/postfix
cat > "$F/etc/main.cf" <<EOF
# written by zinejudge scripts/mailtest-up.sh
compatibility_level = 3.6
queue_directory = $F/spool
data_directory = $F/data
mail_owner = postfix
setgid_group = postdrop
maillog_file_prefixes = $B
maillog_file = $F/postfix.log
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mail.example.test
mydomain = example.test
myorigin = example.test
smtpd_banner = \$myhostname ESMTP $TAG
mydestination =
local_recipient_maps =
alias_maps =
alias_database =
relay_domains =
mynetworks = 127.0.0.0/8
# every domain is a local virtual domain, delivered to dovecot over LMTP ...
virtual_mailbox_domains = static:all
virtual_mailbox_maps = static:ok
virtual_transport = lmtp:inet:127.0.0.1:$LMTP
# ... and nothing may ever leave this machine
default_transport = error:mailtest: outbound mail is disabled
relay_transport = error:mailtest: outbound mail is disabled
smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:$AUTH
smtpd_tls_cert_file = $T/server.pem
smtpd_tls_key_file = $T/server.key
smtpd_tls_security_level = may
smtputf8_enable = yes
biff = no
smtp_dns_support_level = disabled
lmtp_host_lookup = native
smtpd_error_sleep_time = 0s
in_flow_delay = 0s
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 5s
EOF
{
  cat <<EOF
127.0.0.1:$SMTP inet n - n - - smtpd
127.0.0.1:$SUB inet n - n - - smtpd
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
127.0.0.1:$SMTPS inet n - n - - smtpd
  -o smtpd_tls_wrappermode=yes
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
EOF
  for s in "pickup unix n - n 60 1 pickup" "cleanup unix n - n - 0 cleanup" "qmgr unix n - n 1 1 qmgr" \
    "tlsmgr unix - - n 1000? 1 tlsmgr" "rewrite unix - - n - - trivial-rewrite" "bounce unix - - n - 0 bounce" \
    "defer unix - - n - 0 bounce" "trace unix - - n - 0 bounce" "verify unix - - n - 1 verify" \
    "flush unix n - n 1000? 0 flush" "proxymap unix - - n - - proxymap" "proxywrite unix - - n - 1 proxymap" \
    "smtp unix - - n - - smtp" "relay unix - - n - - smtp" "showq unix n - n - - showq" "error unix - - n - - error" \
    "retry unix - - n - - error" "discard unix - - n - - discard" "lmtp unix - - n - - lmtp" \
    "anvil unix - - n - 1 anvil" "scache unix - - n - 1 scache" "postlog unix-dgram n - n - 1 postlogd"; do
    echo "$s"
  done
} > "$F/etc/master.cf"
chown postfix "$F/data"
# postfix waits (up to 2 s, polling) while main.cf is younger than a second,
# to avoid reading a file still being edited: date the files back
touch -d '-1 minute' "$F/etc/main.cf" "$F/etc/master.cf"
# creates the queue subdirectories; its errors go to postfix.log
postfix -c "$F/etc" check || { echo "mailtest-up: postfix check failed; see $F/postfix.log" >&2; exit 1; }

if [ -n "$config_only" ]; then
  echo "mail system configured under $B: imap=$IMAP imaps=$IMAPS smtp=$SMTP submission=$SUB smtps=$SMTPS lmtp=$LMTP ca=$T/ca.pem"
  exit 0
fi

# ---- start both, detached (they outlive this script)
rm -f "$D/run/master.pid" # a stale pid may name an unreaped zombie: dovecot would refuse to start
dovecot -c "$D/dovecot.conf" >>"$D/dovecot.stdout" 2>&1 || {
  echo "mailtest-up: dovecot did not start; see $D/dovecot.log $D/dovecot.stdout" >&2
  tail -3 "$D/dovecot.log" >&2 2>/dev/null
  exit 1
}
postfix -c "$F/etc" start >>"$F/postfix.stdout" 2>&1 || {
  echo "mailtest-up: postfix did not start; see $F/postfix.log $F/postfix.stdout" >&2
  tail -3 "$F/postfix.stdout" >&2 2>/dev/null
  exit 1
}

# ---- wait for the plain-text listeners and check that they are ours (a bare
# connect to 465/993 makes the servers log an SSL_accept error)
banner() { # port -> first line the server sends
  local line=
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  read -r -t 2 line <&3 || true
  exec 3<&- 3>&-
  printf '%s' "$line"
}
for port in $IMAP $SMTP $SUB; do
  ok=
  for _ in $(seq 1 100); do
    case $(banner "$port" 2>/dev/null) in *"$TAG"*) ok=1; break ;; esac
    sleep 0.1
  done
  [ -n "$ok" ] || { echo "mailtest-up: port $port is not served by $TAG; see $D/dovecot.log $F/postfix.log" >&2; exit 1; }
done
echo "mail system up under $B: imap=$IMAP imaps=$IMAPS smtp=$SMTP submission=$SUB smtps=$SMTPS lmtp=$LMTP ca=$T/ca.pem"
