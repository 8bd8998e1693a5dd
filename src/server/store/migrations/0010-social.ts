import type { Kysely, Migration } from 'kysely';
import { createPostIndex } from '../dialect/social-fts.js';
import { addSerialId } from '../dialect/schema.js';

/** Social search (issue 13): users, posts, their searchable terms, and the posts' full-text index. */
export const socialMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('social_users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('username_lc', 'text', (c) => c.notNull().unique())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('followers_count', 'integer', (c) => c.notNull())
      .addColumn('following_count', 'integer', (c) => c.notNull())
      .addColumn('tweet_count', 'integer', (c) => c.notNull())
      .addColumn('verified', 'integer', (c) => c.notNull())
      .addColumn('blue_verified', 'integer', (c) => c.notNull())
      .addColumn('verified_type', 'text', (c) => c.notNull())
      .addColumn('profile_image_url', 'text', (c) => c.notNull())
      .addColumn('cover_image_url', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('location', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('protected', 'integer', (c) => c.notNull())
      .addColumn('favorites_count', 'integer', (c) => c.notNull())
      .addColumn('media_count', 'integer', (c) => c.notNull())
      .addColumn('can_dm', 'integer', (c) => c.notNull())
      .addColumn('is_automated', 'integer', (c) => c.notNull())
      .addColumn('pinned_tweet_ids', 'text', (c) => c.notNull())
      .execute();
    // User search pages by (followers_count desc, id).
    await db.schema
      .createIndex('social_users_followers')
      .on('social_users')
      .columns(['followers_count', 'id'])
      .execute();

    await addSerialId(db, db.schema.createTable('social_posts'), 'rowid_')
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('id_key', 'text', (c) => c.notNull())
      .addColumn('author_id', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_ts', 'integer', (c) => c.notNull())
      .addColumn('lang', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('in_reply_to_id', 'text')
      .addColumn('in_reply_to_user_id', 'text')
      .addColumn('in_reply_to_username', 'text')
      .addColumn('quoted_id', 'text')
      .addColumn('retweeted_id', 'text')
      .addColumn('is_reply', 'integer', (c) => c.notNull())
      .addColumn('is_limited_reply', 'integer', (c) => c.notNull())
      .addColumn('has_images', 'integer', (c) => c.notNull())
      .addColumn('has_videos', 'integer', (c) => c.notNull())
      .addColumn('has_links', 'integer', (c) => c.notNull())
      .addColumn('media_urls', 'text', (c) => c.notNull())
      .addColumn('urls', 'text', (c) => c.notNull())
      .addColumn('hashtags', 'text', (c) => c.notNull())
      .addColumn('mentions', 'text', (c) => c.notNull())
      .addColumn('retweet_count', 'integer', (c) => c.notNull())
      .addColumn('favorite_count', 'integer', (c) => c.notNull())
      .addColumn('reply_count', 'integer', (c) => c.notNull())
      .addColumn('quote_count', 'integer', (c) => c.notNull())
      .addColumn('view_count', 'integer', (c) => c.notNull())
      .addColumn('bookmark_count', 'integer', (c) => c.notNull())
      .addColumn('score', 'integer', (c) => c.notNull())
      .execute();
    // The two orders' keysets, a timeline's, a thread's and a reply page's.
    await db.schema.createIndex('social_posts_latest').on('social_posts').columns(['created_ts', 'id_key']).execute();
    await db.schema.createIndex('social_posts_top').on('social_posts').columns(['score', 'id_key']).execute();
    await db.schema
      .createIndex('social_posts_author')
      .on('social_posts')
      .columns(['author_id', 'created_ts', 'id_key'])
      .execute();
    await db.schema
      .createIndex('social_posts_reply_to')
      .on('social_posts')
      .columns(['in_reply_to_id', 'created_ts', 'id_key'])
      .execute();
    await db.schema.createIndex('social_posts_conversation').on('social_posts').column('conversation_id').execute();
    await db.schema.createIndex('social_posts_quoted').on('social_posts').column('quoted_id').execute();
    await db.schema.createIndex('social_posts_reply_user').on('social_posts').column('in_reply_to_username').execute();

    await db.schema
      .createTable('social_terms')
      .addColumn('post_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('social_terms_lookup')
      .on('social_terms')
      .columns(['kind', 'value', 'post_id'])
      .execute();
    await db.schema.createIndex('social_terms_post').on('social_terms').column('post_id').execute();

    await createPostIndex(db);
  },
};
