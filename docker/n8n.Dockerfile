# n8n 2.41.1 with this package in ~/.n8n/nodes, where n8n loads community packages from, for
# docker-compose.yml: every container (main and workers) gets the same copy. Build the
# package first (npm run build); only package.json and dist/ go into the image.
#
# With the package from the npm registry instead of this repository, replace the two stages
# below by:  RUN mkdir -p ~/.n8n/nodes && cd ~/.n8n/nodes && npm install --omit=peer n8n-nodes-video-personalization@<version>

# The package's files laid out as n8n expects them, without needing a shell in the n8n image.
FROM scratch AS package
COPY package.json /n8n/nodes/node_modules/n8n-nodes-video-personalization/package.json
COPY dist /n8n/nodes/node_modules/n8n-nodes-video-personalization/dist

FROM n8nio/n8n:2.41.1
# No volume over /home/node/.n8n in docker-compose.yml: everything the processes share lives in
# PostgreSQL, and a volume would hide this copy (and keep an old one after an upgrade).
COPY --from=package --chown=node:node /n8n /home/node/.n8n
