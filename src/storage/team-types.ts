/**
 * Teams and users as the rest of the gateway sees them (the tables in
 * migrations/0010_teams.ts). A team owns keys and has members; a member's
 * role is `member` or `admin` (a team admin, for the roles to come). Times
 * are epoch milliseconds.
 */

export interface TeamRecord {
  id: string;
  name: string;
  description: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface NewTeam {
  name: string;
  description?: string | null;
}

export type TeamPatch = Partial<NewTeam>;

export type MemberRole = 'member' | 'admin';

export interface TeamMember {
  teamId: string;
  userId: string;
  role: MemberRole;
  createdAt: number;
}

export type UserStatus = 'active' | 'disabled';

/** A person's gateway-wide admin role (src/admin/access.ts says what each may do). */
export type UserRole = 'owner' | 'admin' | 'viewer';

export interface UserRecord {
  id: string;
  /** Case-folded: two spellings of one address are one user. */
  email: string;
  name: string | null;
  status: UserStatus;
  /** The subject a sign-in provider names the user by; null until one does. */
  externalId: string | null;
  /** The gateway-wide admin role; null: none (a team admin acts through their memberships). */
  role: UserRole | null;
  createdAt: number;
  updatedAt: number;
}

export interface NewUser {
  email: string;
  name?: string | null;
  status?: UserStatus;
  externalId?: string | null;
  role?: UserRole | null;
}

export type UserPatch = Partial<NewUser>;

/** What the keys of a team or of a user add up to. */
export interface KeyHoldings {
  keys: number;
  activeKeys: number;
  /** The keys' spend so far, USD. */
  used: number;
}

export interface TeamRepository {
  create(team: NewTeam): Promise<TeamRecord>;
  get(id: string): Promise<TeamRecord | undefined>;
  getByName(name: string): Promise<TeamRecord | undefined>;
  list(): Promise<TeamRecord[]>;
  update(id: string, patch: TeamPatch): Promise<TeamRecord | undefined>;
  /**
   * Deletes the team and its memberships; refused (409) while an active key
   * belongs to it. Its disabled keys are kept, belonging to no team (their
   * log rows keep the team).
   */
  delete(id: string): Promise<boolean>;
  members(teamId: string): Promise<TeamMember[]>;
  /** The teams a user belongs to, as memberships. */
  membershipsOf(userId: string): Promise<TeamMember[]>;
  member(teamId: string, userId: string): Promise<TeamMember | undefined>;
  /** Adds the user to the team, or changes their role there. */
  putMember(teamId: string, userId: string, role: MemberRole): Promise<TeamMember>;
  /**
   * Removes a member; refused (409) while they hold an active key of the
   * team. Their disabled keys there become the team's.
   */
  removeMember(teamId: string, userId: string): Promise<boolean>;
}

export interface UserRepository {
  create(user: NewUser): Promise<UserRecord>;
  get(id: string): Promise<UserRecord | undefined>;
  getByEmail(email: string): Promise<UserRecord | undefined>;
  /** The user a sign-in provider names by this subject. */
  getByExternalId(externalId: string): Promise<UserRecord | undefined>;
  list(): Promise<UserRecord[]>;
  update(id: string, patch: UserPatch): Promise<UserRecord | undefined>;
  /**
   * Deletes the user and their memberships; refused (409) while they hold an
   * active key. Their disabled keys become their teams'.
   */
  delete(id: string): Promise<boolean>;
}
