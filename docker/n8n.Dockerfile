# n8n with this package in ~/.n8n/nodes, where n8n loads community packages from, for
# docker-compose.yml: every container (main and workers) gets the same copy. Build the
# package first (npm run build); only package.json and dist/ go into the image.
#
# N8N_VERSION picks the n8n image: 2.41.1 (the version the tests run) by default, or a 3.x tag
# (docker-compose.yml passes N8N_VERSION from the environment or .env). n8n loads a package it
# finds in ~/.n8n/nodes without installing it, so this works while the package is unverified,
# also on 3.x where N8N_UNVERIFIED_PACKAGES_ENABLED is off by default (README, "n8n 3.x").
#
# With the package from the npm registry instead of this repository, replace the two stages
# below by:  RUN mkdir -p ~/.n8n/nodes && cd ~/.n8n/nodes && npm install --omit=peer n8n-nodes-video-personalization@<version>
ARG N8N_VERSION=2.41.1

# The package's files laid out as n8n expects them, without needing a shell in the n8n image.
FROM scratch AS package
COPY package.json /n8n/nodes/node_modules/n8n-nodes-video-personalization/package.json
COPY dist /n8n/nodes/node_modules/n8n-nodes-video-personalization/dist

FROM n8nio/n8n:${N8N_VERSION}
# No volume over /home/node/.n8n in docker-compose.yml: everything the processes share lives in
# PostgreSQL, and a volume would hide this copy (and keep an old one after an upgrade).
COPY --from=package --chown=node:node /n8n /home/node/.n8n
