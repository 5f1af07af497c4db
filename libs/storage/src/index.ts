/**
 * libs/storage — where screenshots are kept and how they are handed out: the local store (DATA_DIR/screenshots,
 * served by the gateway), the S3-compatible store (presigned links), and the signed, expiring links of the local one.
 * No browser code: the gateway serves and signs screenshots without loading a browser, workers store them.
 */
export { CAPTURE_TYPES, LocalScreenshotStore, SCREENSHOT_STORE, captureType, screenshotDir, type CaptureKind, type ScreenshotStore } from './screenshot-store.js';
export { S3ScreenshotStore, presignS3Url, s3StoreFromConfig, type S3Options } from './s3-screenshot-store.js';
export { ScreenshotLinks } from './screenshot-links.js';
