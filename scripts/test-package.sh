#!/usr/bin/env bash
# Install the judge as a GM would, on this machine, and check the result:
#   1. the Debian package (scripts/build-deb.sh): apt-get installs it; the
#      user, the files and their modes, the conffile, the man pages;
#      systemd-analyze verify and security on the installed unit; the
#      unit header's package steps; check-config, deliver (by hand and
#      through a real Postfix pipe) and run, all as the user zinejudge on
#      the installed configuration; installing again; remove; purge;
#   2. the unit header's steps for installing by hand, run as written, and
#      the same checks of the installed judge.
# The `systemctl` steps run only where systemd is the init system (not in
# a container): there they are printed as skipped.
#
# usage: scripts/test-package.sh       (as root; test.sh calls it)
#
# It adds and removes the package, the files of a hand installation and
# the user zinejudge: a test machine's business. It refuses to touch a
# judge it did not install (a /var/lib/zinejudge without its marker).
# Re-runnable: what a previous run left (even one that died) is removed
# first, and everything again at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
export PATH="$PATH:/usr/sbin:/sbin"

say() { printf '\n-- %s\n' "$*"; }
fail() { echo "test-package: FAILED: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "must run as root (it installs a package)"
command -v dpkg-query >/dev/null || fail "not a Debian system"

STATE=/var/lib/zinejudge
MARK=$STATE/.zinejudge-package-test
CONF=/etc/zinejudge/zinejudge.toml
UNIT=systemd/zinejudge.service
WORK=$(mktemp -d /tmp/zj-package-test.XXXXXX)
chmod 755 "$WORK"
judge_pid=

# systemd-analyze (package systemd) checks the unit; runuser and setpriv
# (util-linux) and adduser come with every Debian system.
if ! command -v systemd-analyze >/dev/null; then
  say "installing systemd (for systemd-analyze)"
  apt-get -q update >/dev/null
  apt-get install -y -q --no-install-recommends systemd >/dev/null
fi

if [ -e "$STATE" ] && [ ! -e "$MARK" ]; then
  fail "$STATE exists and was not made by this test: is a judge installed here? Not touching it."
fi

remove_all() {
  if [ -n "$judge_pid" ] && kill -0 "$judge_pid" 2>/dev/null; then
    kill -TERM "$judge_pid" 2>/dev/null || true
    wait "$judge_pid" 2>/dev/null || true
  fi
  judge_pid=
  if dpkg-query -W -f='${db:Status-Abbrev}' zinejudge 2>/dev/null | grep -q '^[ir]'; then
    apt-get purge -y -q zinejudge >/dev/null 2>&1 || dpkg --purge zinejudge >/dev/null 2>&1 || true
  fi
  # A hand installation's binary is /usr/bin/zinejudge too (the path the
  # unit's ExecStart names); removed only when no package owns it.
  # (/usr/local/bin/zinejudge: where hand installations went before.)
  if ! dpkg-query -S /usr/bin/zinejudge >/dev/null 2>&1; then rm -f /usr/bin/zinejudge; fi
  rm -f /usr/local/bin/zinejudge /etc/systemd/system/zinejudge.service
  rm -f /usr/local/share/man/man1/zinejudge.1 /usr/local/share/man/man1/zinejudge-*.1
  rm -rf /etc/zinejudge "$STATE"
  for p in /etc/zinejudge/zinejudge.toml /etc/zinejudge; do
    if dpkg-statoverride --list "$p" >/dev/null 2>&1; then dpkg-statoverride --quiet --remove "$p"; fi
  done
  if getent passwd zinejudge >/dev/null; then userdel zinejudge; fi
  if getent group zinejudge >/dev/null; then groupdel zinejudge; fi
}
cleanup() {
  local rc=$?
  remove_all
  rm -rf "$WORK"
  exit $rc
}
trap cleanup EXIT
remove_all

# The lines of the unit header's block whose title starts with $1: the
# commands, as written (not the "(edit ...)" notes).
header_steps() {
  awk -v title="# $1" '
    index($0, title) == 1 { on = 1; next }
    on && /^#   / { in_steps = 1; sub(/^#   /, ""); if ($0 !~ /^\(/) print; next }
    in_steps { exit }
  ' "$UNIT"
}

# Run the header's steps of block $1; the systemctl ones only under systemd.
run_header_steps() {
  local step n=0
  while IFS= read -r step; do
    n=$((n + 1))
    case $step in
      systemctl*)
        if [ -d /run/systemd/system ]; then
          echo "   \$ $step"; bash -c "$step" || { echo "   step failed: $step" >&2; return 1; }
        else
          echo "   skipped (systemd is not the init system here): $step"
        fi
        ;;
      *) echo "   \$ $step"; bash -c "$step" </dev/null || { echo "   step failed: $step" >&2; return 1; } ;;
    esac
  done < <(header_steps "$1")
  [ "$n" -ge 3 ] || fail "the unit header has no '$1' steps"
}

mode_is() { # path owner:group mode
  local got
  got=$(stat -c '%U:%G %a' "$1") || fail "$1 is missing"
  [ "$got" = "$2 $3" ] || fail "$1 is $got, expected $2 $3"
  echo "   $1: $got"
}

HELP_MAIL() { # from message-id
  printf 'From: %s\nTo: judge@localhost\nSubject: help\nMessage-ID: <%s>\n\nHELP\n' "$1" "$2"
}

# The checks every installation must pass: $1 = the installed binary.
check_installed_judge() {
  local zj=$1 unit_file=$2
  say "the user zinejudge"
  getent passwd zinejudge | awk -F: '{ print "   " $0 }'
  [ "$(getent passwd zinejudge | cut -d: -f6)" = "$STATE" ] || fail "zinejudge's home is not $STATE"
  [ "$(id -gn zinejudge)" = zinejudge ] || fail "zinejudge's group is not zinejudge"
  [ "$(id -u zinejudge)" -lt 1000 ] || fail "zinejudge is not a system user"

  say "files and modes"
  mode_is "$zj" root:root 755
  mode_is /etc/zinejudge root:zinejudge 750
  mode_is "$CONF" root:zinejudge 640
  mode_is "$STATE" zinejudge:zinejudge 700
  mode_is "$unit_file" root:root 644
  if runuser -u nobody -- cat "$CONF" >/dev/null 2>&1; then
    fail "another user can read $CONF"
  fi
  echo "   nobody cannot read $CONF"

  say "systemd-analyze verify and security on the installed unit"
  local man=yes
  command -v man >/dev/null || man=no
  systemd-analyze verify --man=$man "$unit_file" 2>"$WORK/verify.err" || true
  if grep zinejudge.service "$WORK/verify.err"; then fail "systemd-analyze verify complains"; fi
  echo "   verify: no complaint about zinejudge.service (man pages checked: $man)"
  # Exposure 0 (safest) to 10; 2.0 is well within systemd's "OK".
  local rating
  rating=$(systemd-analyze security --offline=true --threshold=20 "$unit_file") ||
    { echo "$rating" >&2; fail "systemd-analyze security rates the unit's exposure above 2.0"; }
  echo "   ${rating##*$'\n'}"

  say "the manual page"
  "$zj" man | grep -q '^\.TH zinejudge 1' || fail "zinejudge man prints no page"
  if command -v man >/dev/null; then
    man -w zinejudge >/dev/null || fail "man finds no zinejudge page"
    man -w zinejudge-check-config >/dev/null || fail "man finds no zinejudge-check-config page"
    echo "   man -w zinejudge: $(man -w zinejudge)"
  fi

  say "check-config as zinejudge on the installed configuration"
  (cd / && runuser -u zinejudge -- "$zj" check-config --config "$CONF") || fail "check-config refused"
  # ... and it does refuse a path the service user cannot write.
  printf '[store]\npath = "/root/zinejudge.sqlite"\n' > "$WORK/bad.toml"
  chmod 644 "$WORK/bad.toml"
  if (cd / && runuser -u zinejudge -- "$zj" check-config --config "$WORK/bad.toml" 2>"$WORK/bad.err"); then
    fail "check-config as zinejudge accepted a store in /root"
  fi
  grep -q 'store.path = "/root/zinejudge.sqlite"' "$WORK/bad.err" || fail "unclear refusal: $(cat "$WORK/bad.err")"
  echo "   refused as it should: $(cat "$WORK/bad.err")"

  say "deliver as zinejudge (as .forward or procmail would)"
  install -o zinejudge -g zinejudge -m 600 /dev/null "$MARK"
  HELP_MAIL player1@example.test "deliver-1-$$@example.test" |
    (cd / && runuser -u zinejudge -- "$zj" deliver --config "$CONF") || fail "deliver failed"
  mode_is "$STATE/zinejudge.sqlite" zinejudge:zinejudge 600
  local expect=1

  if command -v postfix >/dev/null || [ -x /usr/sbin/postfix ]; then
    say "deliver through Postfix's pipe transport, as user zinejudge"
    bash scripts/test-postfix-pipe.sh "$WORK/postfix" 20625 player2@example.test "$zj"
    expect=2
  else
    echo "   postfix is not installed: the pipe is not tried (scripts/install-test-deps.sh installs it)"
  fi

  say "run as zinejudge: the delivered mail is answered"
  (cd / && exec setpriv --reuid=zinejudge --regid=zinejudge --init-groups \
    "$zj" run --config "$CONF") >"$WORK/run.log" 2>&1 &
  judge_pid=$!
  local outbox=$STATE/mail/outbox/new n=0
  for _ in $(seq 1 600); do
    # (the judge makes the outbox when it starts)
    [ -d "$outbox" ] && n=$(find "$outbox" -type f | wc -l)
    [ "$n" -ge "$expect" ] && break
    kill -0 "$judge_pid" 2>/dev/null || break
    sleep 0.1
  done
  [ "$n" -ge "$expect" ] || { cat "$WORK/run.log" >&2; fail "$n answers in $outbox, expected $expect"; }
  for p in player1 player2; do
    if [ "$p" = player2 ] && [ "$expect" -lt 2 ]; then continue; fi
    grep -l "^To: .*$p@example.test" "$outbox"/* >/dev/null || fail "no answer to $p"
    echo "   answered $p@example.test"
  done
  kill -TERM "$judge_pid"
  local rc=0
  wait "$judge_pid" || rc=$?
  judge_pid=
  [ "$rc" -eq 0 ] || { cat "$WORK/run.log" >&2; fail "the judge exited $rc on SIGTERM"; }
  echo "   stopped cleanly on SIGTERM"
  [ -z "$(find "$STATE" ! -user zinejudge)" ] || fail "files in $STATE not owned by zinejudge: $(find "$STATE" ! -user zinejudge)"
  echo "   everything in $STATE belongs to zinejudge"
}

# ---------------------------------------------------------------- package
say "building the Debian package"
bash scripts/build-deb.sh
debs=(target/debian/zinejudge_*.deb)
[ ${#debs[@]} -eq 1 ] || fail "expected one package, found: ${debs[*]}"

say "installing it: the unit header's package steps"
# apt-get as the header writes it, answering yes (no one is at this
# terminal; it asks nothing when nothing else needs installing).
printf 'APT::Get::Assume-Yes "true";\nDpkg::Use-Pty "0";\n' > "$WORK/apt.conf"
if ! APT_CONFIG=$WORK/apt.conf run_header_steps "Install from the Debian package"; then
  # A machine whose package lists were never fetched cannot resolve the
  # package's dependencies: fetch them once and try again.
  apt-get -q update >/dev/null
  APT_CONFIG=$WORK/apt.conf run_header_steps "Install from the Debian package"
fi
dpkg-query -W -f='${Conffiles}\n' zinejudge | grep -q "$CONF" || fail "$CONF is not a conffile"
echo "   $CONF is a conffile"
check_installed_judge /usr/bin/zinejudge /usr/lib/systemd/system/zinejudge.service

say "installing the same package again keeps the games and the modes"
dpkg -i "${debs[0]}" >/dev/null
mode_is "$CONF" root:zinejudge 640
mode_is "$STATE" zinejudge:zinejudge 700
[ -s "$STATE/zinejudge.sqlite" ] || fail "the store is gone"

say "remove keeps the configuration and the games; purge removes them"
apt-get remove -y -q zinejudge >/dev/null
[ ! -e /usr/bin/zinejudge ] || fail "remove left /usr/bin/zinejudge"
[ -e "$CONF" ] && [ -s "$STATE/zinejudge.sqlite" ] || fail "remove took the configuration or the store"
apt-get purge -y -q zinejudge >/dev/null
for p in "$CONF" /etc/zinejudge "$STATE" /usr/lib/systemd/system/zinejudge.service; do
  [ ! -e "$p" ] || fail "purge left $p"
done
! dpkg-statoverride --list /etc/zinejudge/zinejudge.toml >/dev/null || fail "purge left the statoverride"
echo "   removed and purged"

# ---------------------------------------------------------------- by hand
remove_all
say "installing by hand: the unit header's steps, as written"
run_header_steps "Install by hand"
check_installed_judge /usr/bin/zinejudge /etc/systemd/system/zinejudge.service

say "package and hand installation checked"
