import { UPLOAD_LIMITS } from '../../contract/meetings.ts';
import { megabytes } from '../group-support/html-content.ts';

/** Swedish texts of the 'Uppgifter' section (SPEC §2 Meeting card, Meeting detail; §8 upload). */
export const TASK_TEXTS = {
  heading: 'Uppgifter',
  appendices: 'Material',
  myFiles: 'Mina inskickade filer',
  noAppendices: 'Inget material ännu.',
  noFiles: 'Du har inte skickat in några filer.',
  upload: 'Skicka in uppgift',
  uploading: 'Laddar upp',
  download: 'Ladda ner',
  delete: 'Ta bort',
  deleteConfirm: 'Vill du ta bort filen?',
  limits: `Max ${megabytes(UPLOAD_LIMITS.maxBytes)} per fil och ${megabytes(UPLOAD_LIMITS.quotaBytes)} totalt. Tillåtna filtyper: PDF, PNG, JPEG, GIF, WebP, HEIC, Word (docx), OpenDocument (odt) och text (txt).`,
  uploadSuccessTitle: 'Information',
  uploadSuccess: 'Uppgiften har skickats in.',
  uploadFailureTitle: 'Fel',
  uploadFailure: 'Det gick inte att skicka in uppgiften. Försök igen senare.',
  downloadFailure: 'Något gick fel vid nedladdning av filen.',
  deleteFailure: 'Något gick fel vid borttagning av filen.',
} as const;
