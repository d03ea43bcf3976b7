-- A cardbase database of schema 4 on PostgreSQL, as cardbase at commit ca3d3c2 (the last
-- of schema 4) made it: tests/test_postgres_upgrade.py loads it into a new database, through
-- psycopg, and opens it with the current code, which must upgrade it.
--
-- How it was made, on PostgreSQL 15.18 (Debian 15.18-0+deb12u1), with the version-4 code in
-- a worktree (git worktree add /tmp/v4 ca3d3c2) and a throwaway server started by
-- tests/pg_cluster.py (Cluster(server_binaries()).start(): SERVER below is the URL it gave):
--
--   psql "$SERVER" -c "CREATE DATABASE cardbase_v4"; URL="${SERVER%/*}/cardbase_v4"
--   export PYTHONPATH=/tmp/v4 CARDBASE_DB=/tmp/unused.db
--   python -c "import sys; from pathlib import Path; from cardbase.db.location import PostgresUrl; from cardbase.db.postgres.schema import prepare; prepare(PostgresUrl(sys.argv[1]), Path('/tmp/v4/tests/data/mini_cards.csv'))" "$URL"
--   cb() { python -m cardbase --db "$URL" "$@"; }
--   cb collectors add Bo
--   cb add "1 C 14 x2" --condition lp --language fr --location "Binder 1" --tag trade --tag rare-ish --note "from a pack"
--   cb add "1 U 15 x3 foil"
--   cb add "1 C 1 x4"
--   cb add "1 R 20"
--   cb undo                            # batch 4 undone
--   cb add "1 C 1 x1" --location Box   # batch 5
--   cb undo                            # batch 5 undone; batch 4 now undone for good (2)
--   cb redo                            # batch 5 applied again
--   cb add "1 C 14 x1" --condition lp --language fr --location "Binder 1" --tag trade --tag rare-ish --note "a better note"
--   cb add "1 U 15 x2" --collector Bo --condition mp --language de --location "Bo's tin" --tag swap
--   cb add "1 C 14 x1 foil" --collector Bo
--   cb remove "1 C 14 x1 foil" --collector Bo
--   cb undo --collector Bo             # batch 9 undone (1)
--   printf '3 Chugawug Cook\n2 Chugawug Elder\n1 Mistfen Bog\n' > deck1.txt
--   printf '4 Pixie Dewdancer\n1 Chugawug Elder\n' > deck2.txt
--   cb deck save deck1.txt --name "Bog Stew"
--   cb deck save deck2.txt --name "Pixie Rush" --collector Bo
--   cb doctor                          # every check passed, schema version 4
--   pg_dump --inserts --no-owner --no-privileges "$URL" | grep -Ev '^\\(un)?restrict '
--
-- and this header put on top. The grep drops the \restrict and \unrestrict lines pg_dump
-- (15.14 and later) wraps its output in: psql's commands, which psycopg cannot run.
--
--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: nocase; Type: COLLATION; Schema: public; Owner: -
--

CREATE COLLATION public.nocase (provider = icu, deterministic = false, locale = 'und-u-ks-level2');


--
-- Name: card_fts_sync(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.card_fts_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    BEGIN
        INSERT INTO card_fts (id, name_v, traits_v, text_v) VALUES (new.id, to_tsvector('cardbase', coalesce(new.name, '')), to_tsvector('cardbase', coalesce(new.traits, '')), to_tsvector('cardbase', coalesce(new.text, '')))
        ON CONFLICT (id) DO UPDATE SET
            name_v = excluded.name_v, traits_v = excluded.traits_v, text_v = excluded.text_v;
        RETURN NULL;
    END $$;


--
-- Name: casefold(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.casefold(value text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT lower(value) $$;


--
-- Name: instr(text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.instr(haystack text, needle text) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT strpos(haystack, needle) $$;


--
-- Name: regexp(text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.regexp(pattern text, value text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT value ~* pattern $$;


--
-- Name: cardbase_stem; Type: TEXT SEARCH DICTIONARY; Schema: public; Owner: -
--

CREATE TEXT SEARCH DICTIONARY public.cardbase_stem (
    TEMPLATE = pg_catalog.snowball,
    language = 'english' );


--
-- Name: cardbase; Type: TEXT SEARCH CONFIGURATION; Schema: public; Owner: -
--

CREATE TEXT SEARCH CONFIGURATION public.cardbase (
    PARSER = pg_catalog."default" );

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR asciiword WITH public.cardbase_stem;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR word WITH public.cardbase_stem;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR numword WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR email WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR url WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR host WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR sfloat WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR version WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR hword_numpart WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR hword_part WITH public.cardbase_stem;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR hword_asciipart WITH public.cardbase_stem;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR numhword WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR asciihword WITH public.cardbase_stem;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR hword WITH public.cardbase_stem;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR url_path WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR file WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR "float" WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR "int" WITH simple;

ALTER TEXT SEARCH CONFIGURATION public.cardbase
    ADD MAPPING FOR uint WITH simple;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: batch; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.batch (
    id integer NOT NULL,
    collector_id integer NOT NULL,
    created_at character varying NOT NULL,
    source character varying NOT NULL,
    undone integer NOT NULL,
    CONSTRAINT ck_batch_undone CHECK ((undone = ANY (ARRAY[0, 1, 2])))
);


--
-- Name: batch_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.batch_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: batch_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.batch_id_seq OWNED BY public.batch.id;


--
-- Name: card; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.card (
    id integer NOT NULL,
    game character varying NOT NULL,
    series integer NOT NULL,
    rarity character varying NOT NULL,
    number integer NOT NULL,
    name character varying NOT NULL,
    name_key character varying NOT NULL,
    type character varying NOT NULL,
    hero boolean NOT NULL,
    sphere character varying,
    traits character varying NOT NULL,
    cost integer,
    attack integer,
    defense integer,
    gems character varying NOT NULL,
    text character varying NOT NULL,
    lore character varying NOT NULL,
    CONSTRAINT ck_card_code_positive CHECK (((series > 0) AND (number > 0))),
    CONSTRAINT ck_card_gems CHECK ((length((gems)::text) <= 4)),
    CONSTRAINT ck_card_rarity CHECK (((rarity)::text = ANY ((ARRAY['C'::character varying, 'U'::character varying, 'R'::character varying, 'E'::character varying, 'P'::character varying, 'S'::character varying])::text[])))
);


--
-- Name: card_fts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.card_fts (
    id integer NOT NULL,
    name_v tsvector NOT NULL,
    traits_v tsvector NOT NULL,
    text_v tsvector NOT NULL,
    all_v tsvector GENERATED ALWAYS AS (((name_v || traits_v) || text_v)) STORED
);


--
-- Name: card_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.card_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: card_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.card_id_seq OWNED BY public.card.id;


--
-- Name: cardbase_meta; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.cardbase_meta (
    key text NOT NULL,
    value text NOT NULL
);


--
-- Name: collector; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.collector (
    id integer NOT NULL,
    name character varying NOT NULL,
    name_key character varying NOT NULL,
    is_default boolean NOT NULL,
    created_at character varying NOT NULL
);


--
-- Name: collector_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.collector_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: collector_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.collector_id_seq OWNED BY public.collector.id;


--
-- Name: deck; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.deck (
    id integer NOT NULL,
    collector_id integer NOT NULL,
    name character varying NOT NULL,
    name_key character varying NOT NULL,
    format character varying NOT NULL,
    created_at character varying NOT NULL,
    updated_at character varying NOT NULL
);


--
-- Name: deck_entry; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.deck_entry (
    id integer NOT NULL,
    deck_id integer NOT NULL,
    section character varying NOT NULL,
    card_id integer NOT NULL,
    copies integer NOT NULL,
    line integer NOT NULL,
    CONSTRAINT ck_deck_entry_copies CHECK ((copies > 0))
);


--
-- Name: deck_entry_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.deck_entry_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: deck_entry_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.deck_entry_id_seq OWNED BY public.deck_entry.id;


--
-- Name: deck_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.deck_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: deck_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.deck_id_seq OWNED BY public.deck.id;


--
-- Name: history; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.history (
    id integer NOT NULL,
    batch_id integer NOT NULL,
    card_id integer NOT NULL,
    finish character varying NOT NULL,
    condition character varying NOT NULL,
    language character varying NOT NULL,
    location character varying NOT NULL,
    tags character varying NOT NULL,
    delta integer NOT NULL,
    note_before character varying,
    CONSTRAINT ck_history_finish CHECK (((finish)::text = ANY ((ARRAY['nonfoil'::character varying, 'foil'::character varying])::text[])))
);


--
-- Name: history_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.history_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: history_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.history_id_seq OWNED BY public.history.id;


--
-- Name: holding; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.holding (
    collector_id integer NOT NULL,
    card_id integer NOT NULL,
    finish character varying NOT NULL,
    condition character varying NOT NULL,
    language character varying NOT NULL,
    location character varying NOT NULL,
    tags character varying NOT NULL,
    copies integer NOT NULL,
    note character varying NOT NULL,
    CONSTRAINT ck_holding_condition CHECK (((condition)::text = ANY ((ARRAY['M'::character varying, 'NM'::character varying, 'LP'::character varying, 'MP'::character varying, 'HP'::character varying, 'DMG'::character varying])::text[]))),
    CONSTRAINT ck_holding_copies CHECK ((copies > 0)),
    CONSTRAINT ck_holding_finish CHECK (((finish)::text = ANY ((ARRAY['nonfoil'::character varying, 'foil'::character varying])::text[])))
);


--
-- Name: my_collector; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.my_collector AS
 SELECT collector.id,
    collector.name
   FROM public.collector
  WHERE (collector.id = (current_setting('cardbase.collector'::text, true))::integer);


--
-- Name: my_holding; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.my_holding AS
 SELECT holding.collector_id,
    holding.card_id,
    holding.finish,
    holding.condition,
    holding.language,
    holding.location,
    holding.tags,
    holding.copies,
    holding.note
   FROM public.holding
  WHERE (holding.collector_id = (current_setting('cardbase.collector'::text, true))::integer);


--
-- Name: ownership; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ownership (
    collector_id integer NOT NULL,
    card_id integer NOT NULL,
    nonfoil integer DEFAULT 0 NOT NULL,
    foil integer DEFAULT 0 NOT NULL,
    CONSTRAINT ck_ownership_not_negative CHECK (((nonfoil >= 0) AND (foil >= 0)))
);


--
-- Name: my_ownership; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.my_ownership AS
 SELECT ownership.card_id,
    ownership.nonfoil,
    ownership.foil
   FROM public.ownership
  WHERE (ownership.collector_id = (current_setting('cardbase.collector'::text, true))::integer);


--
-- Name: batch id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batch ALTER COLUMN id SET DEFAULT nextval('public.batch_id_seq'::regclass);


--
-- Name: card id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card ALTER COLUMN id SET DEFAULT nextval('public.card_id_seq'::regclass);


--
-- Name: collector id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.collector ALTER COLUMN id SET DEFAULT nextval('public.collector_id_seq'::regclass);


--
-- Name: deck id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.deck ALTER COLUMN id SET DEFAULT nextval('public.deck_id_seq'::regclass);


--
-- Name: deck_entry id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.deck_entry ALTER COLUMN id SET DEFAULT nextval('public.deck_entry_id_seq'::regclass);


--
-- Name: history id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.history ALTER COLUMN id SET DEFAULT nextval('public.history_id_seq'::regclass);


--
-- Data for Name: batch; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.batch VALUES (1, 1, '2026-12-02T01:20:07+00:00', 'add ''1 C 14 x2''', 0);
INSERT INTO public.batch VALUES (2, 1, '2026-12-02T01:20:07+00:00', 'add ''1 U 15 x3 foil''', 0);
INSERT INTO public.batch VALUES (3, 1, '2026-12-02T01:20:07+00:00', 'add ''1 C 1 x4''', 0);
INSERT INTO public.batch VALUES (4, 1, '2026-12-02T01:20:08+00:00', 'add ''1 R 20''', 2);
INSERT INTO public.batch VALUES (5, 1, '2026-12-02T01:20:09+00:00', 'add ''1 C 1 x1''', 0);
INSERT INTO public.batch VALUES (6, 1, '2026-12-02T01:20:10+00:00', 'add ''1 C 14 x1''', 0);
INSERT INTO public.batch VALUES (7, 2, '2026-12-02T01:20:10+00:00', 'add ''1 U 15 x2''', 0);
INSERT INTO public.batch VALUES (8, 2, '2026-12-02T01:20:11+00:00', 'add ''1 C 14 x1 foil''', 0);
INSERT INTO public.batch VALUES (9, 2, '2026-12-02T01:20:11+00:00', 'remove ''1 C 14 x1 foil''', 1);


--
-- Data for Name: card; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.card VALUES (1, 'free-realms', 1, 'C', 1, 'Pixie Dewdancer', 'pixiedewdancer', 'Creature', false, 'Nature', 'Pixie', 1, 2, 2, 'GY', '[Y]: Stun my foe.', 'Pixies count the dew at dawn.');
INSERT INTO public.card VALUES (2, 'free-realms', 1, 'C', 14, 'Chugawug Cook', 'chugawugcook', 'Creature', false, 'Nature', 'Chugawug', 2, 3, 4, 'GG', '[Spend 2] >> I get +2 attack until the end of the turn.', 'If it bubbles it is ready.');
INSERT INTO public.card VALUES (3, 'free-realms', 1, 'U', 15, 'Chugawug Elder', 'chugawugelder', 'Creature', false, 'Nature', 'Chugawug, Unique', 4, 5, 6, 'GGY', 'Collect 3: Your other Chugawugs get +1 attack.', 'The eldest remembers the first stew.');
INSERT INTO public.card VALUES (4, 'free-realms', 1, 'R', 20, 'Mistfen Bog', 'mistfenbog', 'Resource', false, 'Nature', 'Location', NULL, NULL, NULL, 'G', '[Zap me] >> Your Chugawugs get +1 defense until the end of the turn.', 'The bog remembers every footstep.');
INSERT INTO public.card VALUES (5, 'free-realms', 1, 'C', 21, 'Sudden Growth', 'suddengrowth', 'Trick', false, 'Nature', 'Maneuver', 1, NULL, NULL, 'GGG', 'Your creature gets +3 defense.', 'Grow where you stand.');
INSERT INTO public.card VALUES (6, 'free-realms', 1, 'C', 41, 'Robgoblin Scrapper', 'robgoblinscrapper', 'Creature', false, 'Chaos', 'Robgoblin', 1, 3, 1, 'R', 'Crush.', 'Finders keepers.');
INSERT INTO public.card VALUES (7, 'free-realms', 1, 'U', 42, 'Undead Drummer', 'undeaddrummer', 'Creature', false, 'Chaos', 'Undead', 3, 4, 3, 'RB', '[RR]: Destroy my foe.', 'The old songs');
INSERT INTO public.card VALUES (8, 'free-realms', 1, 'S', 43, 'Robgoblin Sneak', 'robgoblinsneak', 'Creature', false, 'Chaos', 'Robgoblin, Ninja', 2, 2, 2, 'RR', 'Trickster.', '');
INSERT INTO public.card VALUES (9, 'free-realms', 1, 'R', 50, 'Smoldering Scrapheap', 'smolderingscrapheap', 'Resource', false, 'Chaos', 'Location, Robgoblin', NULL, NULL, NULL, 'RRB', '[Turn me face down] >> Draw a card.', 'Smoke rises.');
INSERT INTO public.card VALUES (10, 'free-realms', 1, 'C', 51, 'Dirty Trick', 'dirtytrick', 'Trick', false, 'Chaos', 'Maneuver', 2, NULL, NULL, 'R', 'Your foe gets -2 attack.', '');
INSERT INTO public.card VALUES (11, 'free-realms', 1, 'C', 81, 'Clockwork Sentry', 'clockworksentry', 'Creature', false, 'Machine', 'Clockwork', 2, 2, 5, 'BB', 'When I score a card draw a card.', 'Tick.');
INSERT INTO public.card VALUES (12, 'free-realms', 1, 'E', 82, 'Clockwork Dragonfly', 'clockworkdragonfly', 'Creature', false, 'Machine', 'Clockwork, Dragon', 5, 7, 4, 'BBRY', '[BB]: Score a card.', 'It hums like a dragon.');
INSERT INTO public.card VALUES (13, 'free-realms', 1, 'C', 91, 'Steam Forge', 'steamforge', 'Resource', false, 'Machine', 'Location', NULL, NULL, NULL, 'B', 'Your [Machine] creatures cost 1 less to play.', '');
INSERT INTO public.card VALUES (14, 'free-realms', 1, 'U', 92, 'Overclock', 'overclock', 'Trick', false, 'Machine', 'Maneuver', 3, NULL, NULL, 'BR', 'Your creature gets +3 attack and Crush in this battle.', '');
INSERT INTO public.card VALUES (15, 'free-realms', 1, 'U', 132, 'Ninja Blade Adept', 'ninjabladeadept', 'Creature', false, 'Order', 'Ninja', 2, 3, 3, 'YY', '[Stars 1] >> My foe gets -1 defense.', 'Patience is a blade.');
INSERT INTO public.card VALUES (16, 'free-realms', 1, 'P', 133, 'Sanctuary Knight', 'sanctuaryknight', 'Creature', false, 'Order', 'Card Duelist', 3, 4, 5, 'Y', '', 'The bells ring twice for trouble.');
INSERT INTO public.card VALUES (17, 'free-realms', 1, 'C', 140, 'Temple Bell', 'templebell', 'Resource', false, 'Order', 'Artifact', NULL, NULL, NULL, 'YG', '[Zap me] >> Your creature gets +1 attack in this battle.', '');
INSERT INTO public.card VALUES (18, 'free-realms', 1, 'R', 141, 'Perfect Block', 'perfectblock', 'Trick', false, 'Order', 'Maneuver', 0, NULL, NULL, 'YYY', 'Stun your creature''s foe. End this battle.', '');
INSERT INTO public.card VALUES (19, 'free-realms', 1, 'R', 161, 'Tavi Emberwake', 'taviemberwake', 'Creature', true, NULL, 'Card Duelist, Unique', 5, 7, 6, 'RGBY', 'Your [Chaos] creatures get +1 attack and +1 defense.', 'Every realm has a hero.');
INSERT INTO public.card VALUES (20, 'free-realms', 1, 'E', 162, 'Old Mossbeard', 'oldmossbeard', 'Creature', true, NULL, 'Forest Troll, Unique', 6, 6, 8, 'GG', 'Collect 4: [Spend 2] >> Ready all your creatures.', '');
INSERT INTO public.card VALUES (21, 'free-realms', 2, 'C', 101, 'Chugawug Cook', 'chugawugcook', 'Creature', false, 'Nature', 'Chugawug', 2, 3, 4, 'GG', '[Spend 2] >> I get +2 attack until the end of the turn.', 'Reprinted with a bigger ladle.');
INSERT INTO public.card VALUES (22, 'free-realms', 2, 'U', 102, 'Robgoblin Siegewright', 'robgoblinsiegewright', 'Creature', false, 'Chaos', 'Robgoblin', 4, 6, 3, 'RRR', '[RR]: Destroy my foe.', '');


--
-- Data for Name: card_fts; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.card_fts VALUES (1, '''dewdanc'':2 ''pixi'':1', '''pixi'':1', '''foe'':4 ''my'':3 ''stun'':2 ''y'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (2, '''chugawug'':1 ''cook'':2', '''chugawug'':1', '''+2'':5 ''2'':2 ''attack'':6 ''end'':9 ''get'':4 ''i'':3 ''of'':10 ''spend'':1 ''the'':8,11 ''turn'':12 ''until'':7', DEFAULT);
INSERT INTO public.card_fts VALUES (3, '''chugawug'':1 ''elder'':2', '''chugawug'':1 ''uniqu'':2', '''+1'':7 ''3'':2 ''attack'':8 ''chugawug'':5 ''collect'':1 ''get'':6 ''other'':4 ''your'':3', DEFAULT);
INSERT INTO public.card_fts VALUES (4, '''bog'':2 ''mistfen'':1', '''locat'':1', '''+1'':6 ''chugawug'':4 ''defens'':7 ''end'':10 ''get'':5 ''me'':2 ''of'':11 ''the'':9,12 ''turn'':13 ''until'':8 ''your'':3 ''zap'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (5, '''growth'':2 ''sudden'':1', '''maneuv'':1', '''+3'':4 ''creatur'':2 ''defens'':5 ''get'':3 ''your'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (6, '''robgoblin'':1 ''scrapper'':2', '''robgoblin'':1', '''crush'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (7, '''drummer'':2 ''undead'':1', '''undead'':1', '''destroy'':2 ''foe'':4 ''my'':3 ''rr'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (8, '''robgoblin'':1 ''sneak'':2', '''ninja'':2 ''robgoblin'':1', '''trickster'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (9, '''scrapheap'':2 ''smolder'':1', '''locat'':1 ''robgoblin'':2', '''a'':6 ''card'':7 ''down'':4 ''draw'':5 ''face'':3 ''me'':2 ''turn'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (10, '''dirti'':1 ''trick'':2', '''maneuv'':1', '''-2'':4 ''attack'':5 ''foe'':2 ''get'':3 ''your'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (11, '''clockwork'':1 ''sentri'':2', '''clockwork'':1', '''a'':4,7 ''card'':5,8 ''draw'':6 ''i'':2 ''score'':3 ''when'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (12, '''clockwork'':1 ''dragonfli'':2', '''clockwork'':1 ''dragon'':2', '''a'':3 ''bb'':1 ''card'':4 ''score'':2', DEFAULT);
INSERT INTO public.card_fts VALUES (13, '''forg'':2 ''steam'':1', '''locat'':1', '''1'':5 ''cost'':4 ''creatur'':3 ''less'':6 ''machin'':2 ''play'':8 ''to'':7 ''your'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (14, '''overclock'':1', '''maneuv'':1', '''+3'':4 ''and'':6 ''attack'':5 ''battl'':10 ''creatur'':2 ''crush'':7 ''get'':3 ''in'':8 ''this'':9 ''your'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (15, '''adept'':3 ''blade'':2 ''ninja'':1', '''ninja'':1', '''-1'':6 ''1'':2 ''defens'':7 ''foe'':4 ''get'':5 ''my'':3 ''star'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (16, '''knight'':2 ''sanctuari'':1', '''card'':1 ''duelist'':2', '', DEFAULT);
INSERT INTO public.card_fts VALUES (17, '''bell'':2 ''templ'':1', '''artifact'':1', '''+1'':6 ''attack'':7 ''battl'':10 ''creatur'':4 ''get'':5 ''in'':8 ''me'':2 ''this'':9 ''your'':3 ''zap'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (18, '''block'':2 ''perfect'':1', '''maneuv'':1', '''battl'':8 ''creatur'':3 ''end'':6 ''foe'':5 ''s'':4 ''stun'':1 ''this'':7 ''your'':2', DEFAULT);
INSERT INTO public.card_fts VALUES (19, '''emberwak'':2 ''tavi'':1', '''card'':1 ''duelist'':2 ''uniqu'':3', '''+1'':5,8 ''and'':7 ''attack'':6 ''chao'':2 ''creatur'':3 ''defens'':9 ''get'':4 ''your'':1', DEFAULT);
INSERT INTO public.card_fts VALUES (20, '''mossbeard'':2 ''old'':1', '''forest'':1 ''troll'':2 ''uniqu'':3', '''2'':4 ''4'':2 ''all'':6 ''collect'':1 ''creatur'':8 ''readi'':5 ''spend'':3 ''your'':7', DEFAULT);
INSERT INTO public.card_fts VALUES (21, '''chugawug'':1 ''cook'':2', '''chugawug'':1', '''+2'':5 ''2'':2 ''attack'':6 ''end'':9 ''get'':4 ''i'':3 ''of'':10 ''spend'':1 ''the'':8,11 ''turn'':12 ''until'':7', DEFAULT);
INSERT INTO public.card_fts VALUES (22, '''robgoblin'':1 ''siegewright'':2', '''robgoblin'':1', '''destroy'':2 ''foe'':4 ''my'':3 ''rr'':1', DEFAULT);


--
-- Data for Name: cardbase_meta; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.cardbase_meta VALUES ('schema_version', '4');
INSERT INTO public.cardbase_meta VALUES ('application_id', '1129464898');


--
-- Data for Name: collector; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.collector VALUES (1, 'me', 'me', true, '2026-12-02T01:20:06+00:00');
INSERT INTO public.collector VALUES (2, 'Bo', 'bo', false, '2026-12-02T01:20:06+00:00');


--
-- Data for Name: deck; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.deck VALUES (1, 1, 'Bog Stew', 'bogstew', 'free-realms', '2026-12-02T01:20:12+00:00', '2026-12-02T01:20:12+00:00');
INSERT INTO public.deck VALUES (2, 2, 'Pixie Rush', 'pixierush', 'free-realms', '2026-12-02T01:20:12+00:00', '2026-12-02T01:20:12+00:00');


--
-- Data for Name: deck_entry; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.deck_entry VALUES (1, 1, 'main', 2, 3, 1);
INSERT INTO public.deck_entry VALUES (2, 1, 'main', 3, 2, 2);
INSERT INTO public.deck_entry VALUES (3, 1, 'main', 4, 1, 3);
INSERT INTO public.deck_entry VALUES (4, 2, 'main', 1, 4, 1);
INSERT INTO public.deck_entry VALUES (5, 2, 'main', 3, 1, 2);


--
-- Data for Name: history; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.history VALUES (1, 1, 2, 'nonfoil', 'LP', 'fr', 'Binder 1', 'rare-ish,trade', 2, NULL);
INSERT INTO public.history VALUES (2, 2, 3, 'foil', 'NM', 'en', '', '', 3, NULL);
INSERT INTO public.history VALUES (3, 3, 1, 'nonfoil', 'NM', 'en', '', '', 4, NULL);
INSERT INTO public.history VALUES (4, 4, 4, 'nonfoil', 'NM', 'en', '', '', 1, NULL);
INSERT INTO public.history VALUES (5, 5, 1, 'nonfoil', 'NM', 'en', 'Box', '', 1, NULL);
INSERT INTO public.history VALUES (6, 6, 2, 'nonfoil', 'LP', 'fr', 'Binder 1', 'rare-ish,trade', 1, 'from a pack');
INSERT INTO public.history VALUES (7, 7, 3, 'nonfoil', 'MP', 'de', 'Bo''s tin', 'swap', 2, NULL);
INSERT INTO public.history VALUES (8, 8, 2, 'foil', 'NM', 'en', '', '', 1, NULL);
INSERT INTO public.history VALUES (9, 9, 2, 'foil', 'NM', 'en', '', '', -1, NULL);


--
-- Data for Name: holding; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.holding VALUES (1, 3, 'foil', 'NM', 'en', '', '', 3, '');
INSERT INTO public.holding VALUES (1, 1, 'nonfoil', 'NM', 'en', '', '', 4, '');
INSERT INTO public.holding VALUES (1, 1, 'nonfoil', 'NM', 'en', 'Box', '', 1, '');
INSERT INTO public.holding VALUES (1, 2, 'nonfoil', 'LP', 'fr', 'Binder 1', 'rare-ish,trade', 3, 'a better note');
INSERT INTO public.holding VALUES (2, 3, 'nonfoil', 'MP', 'de', 'Bo''s tin', 'swap', 2, '');
INSERT INTO public.holding VALUES (2, 2, 'foil', 'NM', 'en', '', '', 1, '');


--
-- Data for Name: ownership; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.ownership VALUES (1, 3, 0, 3);
INSERT INTO public.ownership VALUES (1, 1, 5, 0);
INSERT INTO public.ownership VALUES (1, 2, 3, 0);
INSERT INTO public.ownership VALUES (2, 3, 2, 0);
INSERT INTO public.ownership VALUES (2, 2, 0, 1);


--
-- Name: batch_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.batch_id_seq', 9, true);


--
-- Name: card_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.card_id_seq', 22, true);


--
-- Name: collector_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.collector_id_seq', 2, true);


--
-- Name: deck_entry_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.deck_entry_id_seq', 5, true);


--
-- Name: deck_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.deck_id_seq', 2, true);


--
-- Name: history_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.history_id_seq', 9, true);


--
-- Name: batch batch_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batch
    ADD CONSTRAINT batch_pkey PRIMARY KEY (id);


--
-- Name: card_fts card_fts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_fts
    ADD CONSTRAINT card_fts_pkey PRIMARY KEY (id);


--
-- Name: card card_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card
    ADD CONSTRAINT card_pkey PRIMARY KEY (id);


--
-- Name: cardbase_meta cardbase_meta_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cardbase_meta
    ADD CONSTRAINT cardbase_meta_pkey PRIMARY KEY (key);


--
-- Name: collector collector_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.collector
    ADD CONSTRAINT collector_pkey PRIMARY KEY (id);


--
-- Name: deck_entry deck_entry_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.deck_entry
    ADD CONSTRAINT deck_entry_pkey PRIMARY KEY (id);


--
-- Name: deck deck_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.deck
    ADD CONSTRAINT deck_pkey PRIMARY KEY (id);


--
-- Name: history history_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.history
    ADD CONSTRAINT history_pkey PRIMARY KEY (id);


--
-- Name: holding holding_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.holding
    ADD CONSTRAINT holding_pkey PRIMARY KEY (collector_id, card_id, finish, condition, language, location, tags);


--
-- Name: ownership ownership_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ownership
    ADD CONSTRAINT ownership_pkey PRIMARY KEY (collector_id, card_id);


--
-- Name: card uq_card_code; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card
    ADD CONSTRAINT uq_card_code UNIQUE (game, series, number);


--
-- Name: collector uq_collector_name; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.collector
    ADD CONSTRAINT uq_collector_name UNIQUE (name_key);


--
-- Name: deck uq_deck_name; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.deck
    ADD CONSTRAINT uq_deck_name UNIQUE (collector_id, name_key);


--
-- Name: ix_batch_collector; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_batch_collector ON public.batch USING btree (collector_id, undone);


--
-- Name: ix_card_attack_down; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_card_attack_down ON public.card USING btree (((attack IS NULL)), ((- attack)), game, series, number);


--
-- Name: ix_card_attack_up; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_card_attack_up ON public.card USING btree (((attack IS NULL)), ((- attack)) DESC, game, series, number);


--
-- Name: ix_card_cost_down; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_card_cost_down ON public.card USING btree (((cost IS NULL)), ((- cost)), game, series, number);


--
-- Name: ix_card_cost_up; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_card_cost_up ON public.card USING btree (((cost IS NULL)), ((- cost)) DESC, game, series, number);


--
-- Name: ix_card_defense_down; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_card_defense_down ON public.card USING btree (((defense IS NULL)), ((- defense)), game, series, number);


--
-- Name: ix_card_defense_up; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_card_defense_up ON public.card USING btree (((defense IS NULL)), ((- defense)) DESC, game, series, number);


--
-- Name: ix_card_fts_all_v; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_card_fts_all_v ON public.card_fts USING gin (all_v);


--
-- Name: ix_card_fts_name_v; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_card_fts_name_v ON public.card_fts USING gin (name_v);


--
-- Name: ix_card_fts_text_v; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_card_fts_text_v ON public.card_fts USING gin (text_v);


--
-- Name: ix_card_fts_traits_v; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_card_fts_traits_v ON public.card_fts USING gin (traits_v);


--
-- Name: ix_card_name_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_card_name_key ON public.card USING btree (name_key);


--
-- Name: ix_card_series_number; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_card_series_number ON public.card USING btree (series, number);


--
-- Name: ix_collector_default; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX ix_collector_default ON public.collector USING btree (is_default) WHERE is_default;


--
-- Name: ix_deck_entry_deck; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_deck_entry_deck ON public.deck_entry USING btree (deck_id);


--
-- Name: ix_history_batch; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_history_batch ON public.history USING btree (batch_id);


--
-- Name: card card_fts; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER card_fts AFTER INSERT OR UPDATE ON public.card FOR EACH ROW EXECUTE FUNCTION public.card_fts_sync();


--
-- Name: batch batch_collector_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.batch
    ADD CONSTRAINT batch_collector_id_fkey FOREIGN KEY (collector_id) REFERENCES public.collector(id);


--
-- Name: card_fts card_fts_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.card_fts
    ADD CONSTRAINT card_fts_id_fkey FOREIGN KEY (id) REFERENCES public.card(id) ON DELETE CASCADE;


--
-- Name: deck deck_collector_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.deck
    ADD CONSTRAINT deck_collector_id_fkey FOREIGN KEY (collector_id) REFERENCES public.collector(id);


--
-- Name: deck_entry deck_entry_card_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.deck_entry
    ADD CONSTRAINT deck_entry_card_id_fkey FOREIGN KEY (card_id) REFERENCES public.card(id);


--
-- Name: deck_entry deck_entry_deck_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.deck_entry
    ADD CONSTRAINT deck_entry_deck_id_fkey FOREIGN KEY (deck_id) REFERENCES public.deck(id);


--
-- Name: history history_batch_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.history
    ADD CONSTRAINT history_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batch(id);


--
-- Name: history history_card_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.history
    ADD CONSTRAINT history_card_id_fkey FOREIGN KEY (card_id) REFERENCES public.card(id);


--
-- Name: holding holding_card_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.holding
    ADD CONSTRAINT holding_card_id_fkey FOREIGN KEY (card_id) REFERENCES public.card(id);


--
-- Name: holding holding_collector_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.holding
    ADD CONSTRAINT holding_collector_id_fkey FOREIGN KEY (collector_id) REFERENCES public.collector(id);


--
-- Name: ownership ownership_card_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ownership
    ADD CONSTRAINT ownership_card_id_fkey FOREIGN KEY (card_id) REFERENCES public.card(id);


--
-- Name: ownership ownership_collector_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ownership
    ADD CONSTRAINT ownership_collector_id_fkey FOREIGN KEY (collector_id) REFERENCES public.collector(id);


--
-- PostgreSQL database dump complete
--


