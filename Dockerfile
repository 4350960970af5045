# zinejudge in a container: the judge alone, as a non-root user, with its
# store and Maildirs in the volume /var/lib/zinejudge.
#
#   docker build -t zinejudge .
#   docker run -d --name zinejudge -v zinejudge:/var/lib/zinejudge zinejudge
#   docker run --rm -v zinejudge:/var/lib/zinejudge zinejudge check-config --config /etc/zinejudge/zinejudge.toml
#
# Mount your own configuration over /etc/zinejudge/zinejudge.toml (README,
# "The container"); passwords can come from the environment
# (ZINEJUDGE_IMAP_PASSWORD, ZINEJUDGE_SMTP_PASSWORD) or from files you
# mount. A mail piped in is stored for the judge:
#   docker exec -i zinejudge zinejudge deliver --config /etc/zinejudge/zinejudge.toml < mail.eml

# ---- build: Debian's compiler is too old for this crate (edition 2024,
# Rust 1.95), so the toolchain comes from rustup, pinned.
FROM debian:bookworm AS build
ARG RUST_VERSION=1.95.0
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates curl gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
ENV RUSTUP_HOME=/opt/rustup CARGO_HOME=/opt/cargo PATH=/opt/cargo/bin:$PATH
RUN curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs \
      | sh -s -- -y --profile minimal --default-toolchain "$RUST_VERSION"
WORKDIR /src
COPY . .
RUN cargo build --release --locked \
 && install -D -m 755 target/release/zinejudge /out/usr/bin/zinejudge \
 && /out/usr/bin/zinejudge man --dir /out/usr/share/man/man1

# ---- run: the binary, its configuration, time zones and CA roots.
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --user-group --home-dir /var/lib/zinejudge --no-create-home \
      --shell /usr/sbin/nologin zinejudge \
 && install -d -m 700 -o zinejudge -g zinejudge /var/lib/zinejudge \
 && install -d -m 750 -o root -g zinejudge /etc/zinejudge
COPY --from=build /out/ /
COPY --chown=root:zinejudge --chmod=640 packaging/zinejudge.toml /etc/zinejudge/zinejudge.toml
USER zinejudge
WORKDIR /var/lib/zinejudge
VOLUME ["/var/lib/zinejudge"]
ENTRYPOINT ["zinejudge"]
CMD ["run", "--config", "/etc/zinejudge/zinejudge.toml"]
