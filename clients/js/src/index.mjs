// replayd-client: the server's games (WebAssembly, or the pure-JavaScript
// port), an API client and offline receipt verification. See README.md.
export { loadGames, loadPort, play } from './games.mjs';
export { Client, ApiError, retryAfterMs } from './api.mjs';
export { verifyReceipt, receiptRecord, movesHash, parseReceipt, MESSAGES } from './receipts.mjs';
export {
  leafHash, nodeHash, emptyTreeHash, verifyInclusion, verifyConsistency, tilePath, parseTilePath, tilesForSize, tileWidth,
  parseEntryBundle, entryBundle, treeHashFromTiles, hashTileOfEntries, checkAllTiles, TileReader, keyId, parseVerifierKey,
  openNote, parseCheckpoint, decodeLeaf, verifyLog, parseLogProof, scoreLeaf, parseReceiptV3, parseSeedToken, dayOfDate,
  openCheckpoint, verifyLogProof, verifySubmission, verifyLoggedScore, foldBoards,
} from './log.mjs';
