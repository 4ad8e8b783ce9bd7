# Container image of kruise-ts for users who build with Docker (`docker build -t kruise-ts/kruise:0.1.0 .`).
# The same image is built without a Docker daemon by scripts/image.sh (docs/design/image.md); both run
# as uid 65534 with `kruise` as the entrypoint.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY bin ./bin
RUN npm run build \
 && find dist -name '*.test.js' -delete -o -name '*.test.d.ts' -delete \
 && rm -rf dist/e2e dist/bench \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /src/package.json /src/package-lock.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/bin ./bin
# the CRI client of kruise-daemon reads its wire definitions from this file at run time
COPY --from=build /src/src/daemon/cri/grpc/api.proto ./src/daemon/cri/grpc/api.proto
RUN ln -s /app/bin/kruise.js /usr/local/bin/kruise
ENV NODE_ENV=production
USER 65534:65534
ENTRYPOINT ["kruise"]
