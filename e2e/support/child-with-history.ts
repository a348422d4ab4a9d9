import type { APIRequestContext } from '@playwright/test';
import { childToken, registerChild } from '../../harness/actors/child-account.ts';
import { ChildServerView } from '../../harness/actors/child-server-view.ts';
import { Counsellor } from '../../harness/actors/counsellor.ts';

/** The subject of the mail `childWithHistory` writes. */
export const HISTORY_MAIL_SUBJECT = 'Ett mejl om skolan';

/** A fresh child with a mail a counsellor answered and a chat a counsellor answered and ended. */
export async function childWithHistory(request: APIRequestContext, prefix = 'axe') {
  const account = await registerChild(request, prefix);
  const server = new ChildServerView(request, await childToken(request, account));
  const counsellor = new Counsellor(request);
  await counsellor.logIn();
  const mail = await server.sendMail(HISTORY_MAIL_SUBJECT, 'Hej, jag har en fråga.');
  await counsellor.write(mail.id, 'Hej! Vad bra att du skriver.');
  const chat = await server.startChat('Hej, jag vill prata.');
  await counsellor.accept(chat.id);
  await counsellor.write(chat.id, 'Hej! Jag heter Kim och jag är kurator.');
  await counsellor.resolve(chat.id);
  return { account, mailId: mail.id };
}
