import { css } from '@linaria/core';
import { useState } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { useStaffSession } from '../session/staff-session.tsx';
import { CounsellorConsole } from '../counsellor/counsellor-console.tsx';
import { GroupLeaderConsole } from '../group-leader/group-leader-console.tsx';
import { ModerationConsole } from '../peers/moderation-console.tsx';
import { FeedbackConsole } from '../admin/feedback-console.tsx';
import { useRuntimeConfig } from '../config/runtime-config.ts';
import { button, colors, noticeText, secondaryButton } from '../ui/styles.ts';
import { HubStatusNotice } from './hub-status-notice.tsx';
import { SHELL_TEXTS as T } from './texts.ts';

const header = css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem 1rem;
  padding: 0.5rem 1rem;
  background: ${colors.surface};
  border-bottom: 1px solid #d9d4e2;
  & p {
    margin: 0;
  }
`;

const brand = css`
  margin: 0;
  font-size: 1.25rem;
  color: ${colors.brand};
`;

const user = css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem 1rem;
`;

const nav = css`
  background: ${colors.surface};
  border-bottom: 1px solid #d9d4e2;
  & ul {
    display: flex;
    gap: 0.25rem;
    margin: 0;
    padding: 0 1rem;
    list-style: none;
  }
  & a {
    display: inline-block;
    padding: 0.75rem 1rem;
    font-weight: 600;
    text-decoration: none;
    border-bottom: 4px solid transparent;
  }
  & a[aria-current='page'] {
    border-bottom-color: ${colors.brand};
  }
`;

const main = css`
  padding: 1rem;
  max-width: 1600px;
  margin: 0 auto;
`;

const skip = css`
  position: absolute;
  left: -999px;
  &:focus {
    left: 1rem;
    top: 0.5rem;
    z-index: 10;
    background: ${colors.surface};
    padding: 0.5rem;
  }
`;

export const COUNSELLOR_PATH = '/kurator';
export const GROUP_LEADER_PATH = '/gruppledare';
/** Peers moderation: counsellors of the Peers variant only. */
export const MODERATION_PATH = '/moderering';
/** 'Hur kändes chatten?': administrators. */
export const FEEDBACK_PATH = '/aterkoppling';

/**
 * The signed-in console (under the router base `/personal`): header with the staff member's name
 * and 'Logga ut', one navigation link per role, and the parts. The group-leader part is nested at
 * `/personal/gruppledare`, so its own routes are relative to that.
 */
export function ConsoleShell() {
  const { name, roles, signOut } = useStaffSession();
  const [signingOut, setSigningOut] = useState(false);
  const isCounsellor = roles.includes('counsellor');
  const isGroupLeader = roles.includes('group_leader');
  const peers = useRuntimeConfig().features.peers;
  const moderates = isCounsellor && peers;
  const isAdmin = roles.includes('admin');
  const home = isCounsellor
    ? COUNSELLOR_PATH
    : isGroupLeader
      ? GROUP_LEADER_PATH
      : isAdmin
        ? FEEDBACK_PATH
        : null;

  return (
    <>
      <a className={skip} href="#console-main">
        {T.skipToContent}
      </a>
      <header className={header}>
        <p className={brand}>{T.consoleName}</p>
        <div className={user}>
          <p>
            <span className="visually-hidden">{T.signedInAs} </span>
            <strong data-testid="staff-name">{name}</strong>
          </p>
          <button
            type="button"
            className={`${button} ${secondaryButton}`}
            disabled={signingOut}
            onClick={() => {
              setSigningOut(true);
              void signOut();
            }}
          >
            {signingOut ? T.signingOut : T.signOut}
          </button>
        </div>
      </header>
      {(isCounsellor || isGroupLeader || isAdmin) && (
        <nav className={nav} aria-label={T.navLabel}>
          <ul>
            {isCounsellor && (
              <li>
                <NavLink href={COUNSELLOR_PATH}>{T.counsellor}</NavLink>
              </li>
            )}
            {moderates && (
              <li>
                <NavLink href={MODERATION_PATH}>{T.moderation}</NavLink>
              </li>
            )}
            {isGroupLeader && (
              <li>
                <NavLink href={GROUP_LEADER_PATH}>{T.groupLeader}</NavLink>
              </li>
            )}
            {isAdmin && (
              <li>
                <NavLink href={FEEDBACK_PATH}>{T.feedback}</NavLink>
              </li>
            )}
          </ul>
        </nav>
      )}
      <HubStatusNotice />
      <main id="console-main" className={main} tabIndex={-1}>
        <Switch>
          {isCounsellor && (
            <Route path={COUNSELLOR_PATH} nest>
              <CounsellorConsole />
            </Route>
          )}
          {moderates && (
            <Route path={MODERATION_PATH}>
              <ModerationConsole />
            </Route>
          )}
          {isGroupLeader && (
            <Route path={GROUP_LEADER_PATH} nest>
              <GroupLeaderConsole />
            </Route>
          )}
          {isAdmin && (
            <Route path={FEEDBACK_PATH}>
              <FeedbackConsole />
            </Route>
          )}
          <Route>{home ? <Redirect to={home} replace /> : <p className={noticeText}>{T.noRole}</p>}</Route>
        </Switch>
      </main>
    </>
  );
}

function NavLink({ href, children }: { href: string; children: string }) {
  const [location] = useLocation();
  const active = location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={active ? 'page' : undefined}>
      {children}
    </Link>
  );
}
