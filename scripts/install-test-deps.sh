#!/usr/bin/env bash
# Install what zinejudge's tests need on a Debian machine: Dovecot
# (IMAP + LMTP) and Postfix (SMTP), which the mail tests start by themselves
# on 127.0.0.1 with their own configuration (tests/support/mailsys.rs,
# scripts/mailtest-up.sh), openssl for their throw-away certificates, and
# Chromium with its WebDriver (chromium-driver), which the web page tests
# drive headless against the judge's pages on 127.0.0.1
# (tests/web/web_browser.rs), and PostgreSQL, which the store tests start on
# 127.0.0.1 in a temporary directory (tests/support/postgres.rs).
#
# usage: scripts/install-test-deps.sh        (as root when something is missing)
#
# Idempotent: when every package is present it says so and exits at once.
# Runs without prompts (DEBIAN_FRONTEND=noninteractive, Postfix preseeded to
# "No configuration"), and keeps the packages' own services from starting:
# the system-wide Dovecot and Postfix are never used.
set -euo pipefail

packages=(dovecot-imapd dovecot-lmtpd postfix openssl chromium chromium-driver postgresql)

missing() {
  local p
  for p in "${packages[@]}"; do
    [ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null)" = "ii " ] || echo "$p"
  done
}

command -v dpkg-query >/dev/null || {
  echo "install-test-deps: this is not a Debian-like system (no dpkg-query); install by hand: ${packages[*]}" >&2
  exit 1
}

mapfile -t todo < <(missing)
if [ ${#todo[@]} -eq 0 ]; then
  echo "install-test-deps: test packages present (${packages[*]})"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-test-deps: missing packages: ${todo[*]}" >&2
  echo "install-test-deps: run this script as root, or: sudo apt-get install --no-install-recommends ${todo[*]}" >&2
  exit 1
fi

start=$SECONDS
echo "install-test-deps: installing ${todo[*]}"
export DEBIAN_FRONTEND=noninteractive
echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
echo "postfix postfix/mailname string mail.example.test" | debconf-set-selections

# Keep the packages' init scripts from starting system-wide daemons (Docker
# images ship such a policy already; a full machine does not).
policy=/usr/sbin/policy-rc.d
own_policy=
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy"
  chmod 755 "$policy"
  own_policy=1
fi
cleanup() { [ -z "$own_policy" ] || rm -f "$policy"; }
trap cleanup EXIT

apt_opts=(-y -q -o Dpkg::Use-Pty=0 -o Acquire::Retries=3 -o DPkg::Lock::Timeout=600
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
apt-get -q -o Acquire::Retries=3 -o DPkg::Lock::Timeout=600 update >/dev/null
apt-get "${apt_opts[@]}" install --no-install-recommends "${todo[@]}" >/tmp/install-test-deps.$$.log 2>&1 || {
  cat /tmp/install-test-deps.$$.log >&2
  rm -f /tmp/install-test-deps.$$.log
  echo "install-test-deps: apt-get install failed" >&2
  exit 1
}
rm -f /tmp/install-test-deps.$$.log

mapfile -t still < <(missing)
if [ ${#still[@]} -ne 0 ]; then
  echo "install-test-deps: still missing after install: ${still[*]}" >&2
  exit 1
fi
echo "install-test-deps: installed in $((SECONDS - start)) s: dovecot $(/usr/sbin/dovecot --version | cut -d' ' -f1), postfix $(/usr/sbin/postconf -h -d mail_version 2>/dev/null), $(/usr/bin/chromium --version 2>/dev/null | head -1)"
