/** The release this tree builds: `kruise --version`, the image tag and the chart's default image (kept equal to package.json's by its test). */
export const kruiseVersion = '0.1.0';

/** The container image `scripts/image.sh` builds (docs/design/image.md). */
export const kruiseImageRepository = 'kruise-ts/kruise';
