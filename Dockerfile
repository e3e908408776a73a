# midiviz in a Debian 12 image, for the cluster examples (docs/batch/kubernetes-indexed-job.yaml):
#   docker build -t registry.example.com/midiviz:0.3.0 .
# The build stage installs the libraries and tools with scripts/setup and the release build with
# scripts/install --portable (the Swift runtime linked in; built for any x86-64, not the build
# machine's CPU: the image runs on other nodes); the image has the libraries, ffmpeg, a SoundFont
# and the font midiviz needs, and the installed binary, not the toolchain.
FROM swift:6.2-bookworm AS build
WORKDIR /src
COPY . .
RUN scripts/setup && scripts/install --portable --prefix /opt/midiviz

FROM debian:12-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsmf0 libpng16-16 libfluidsynth3 libfreetype6 libebur128-1 librsvg2-2 \
        ffmpeg fonts-dejavu-core timgm6mb-soundfont \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/midiviz /usr/local
ENTRYPOINT ["midiviz"]
