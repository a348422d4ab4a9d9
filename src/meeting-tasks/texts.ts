import { UPLOAD_LIMITS } from '../../contract/limits.ts';
import { megabytes } from '../conversation-ui/html-content.ts';

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
  /** Not in SPEC §8: a refused file says why, so the user knows that trying again will not help. */
  uploadTooLarge: `Filen är för stor. Den får vara högst ${megabytes(UPLOAD_LIMITS.maxBytes)}.`,
  uploadWrongType:
    'Den filtypen går inte att skicka in. Välj en PDF, en bild, ett Word-dokument eller en textfil.',
  downloadFailure: 'Något gick fel vid nedladdning av filen.',
  deleteFailure: 'Något gick fel vid borttagning av filen.',
} as const;
